import { z } from 'zod';
import { AvailableItem, RenovationItem, RenovationItemBody, RenovationsSubjects as S, UpdateRenovationItemBody } from '@renopath/contracts';
import { allNodes, type ClientScope } from '@renopath/catalog';
import type { RouteDef } from '../../route.ts';
import { base, R } from './index.ts';

/**
 * The item bodies of a scope as the document shows them: `renovation_component_type` one of the
 * catalogue's component types of that scope, the set the service accepts there (it refuses the
 * others, naming the scope). Read from the catalogue, so a new node is documented as it lands.
 */
function documentedItemBodies(scope: string, catalogueScope: ClientScope) {
  const types = allNodes()
    .filter((node) => node.scope === catalogueScope)
    .map((node) => node.renovation_component_type) as [string, ...string[]];
  const create = RenovationItemBody.extend({ renovation_component_type: z.enum(types) });
  return {
    create: { name: `${scope}RenovationItemBody`, schema: create },
    update: { name: `Update${scope}RenovationItemBody`, schema: create.partial().meta({ minProperties: 1 }) },
  };
}

/** The five item operations and the available items of one scope (the interface's "Renovation items"). */
function scopeRoutes(o: { collection: string; ids: string[]; noun: string; scope: string; catalogueScope: ClientScope }): RouteDef[] {
  const item = `${o.collection}/items/{item_id}`;
  const itemIds = [...o.ids, 'item_id'];
  const documented = documentedItemBodies(o.scope, o.catalogueScope);
  return [
    {
      ...base,
      method: 'POST',
      path: `${o.collection}/items`,
      subject: S.addItem,
      operationId: `add${o.scope}Item`,
      rules: [
        'the estate needs {fields} before renovation items can be priced',
        'renovation_component_type {type} is not available for this {scope} (see the available items)',
      ],
      ids: o.ids,
      body: RenovationItemBody,
      documentedBody: documented.create,
      status: 201,
      reply: RenovationItem,
      summary: `Add an item ${o.noun}: a catalogue component type allowed there, and count >= 1 (quantity, cost, VAT, grant, derived works and the EPC indication follow)`,
      errors: [400, 401, 403, 404],
    },
    {
      ...base,
      method: 'GET',
      path: `${o.collection}/items`,
      subject: S.listItems,
      operationId: `list${o.scope}Items`,
      ids: o.ids,
      status: 200,
      reply: z.array(RenovationItem),
      summary: `The items ${o.noun}`,
      errors: [401, 403, 404],
    },
    {
      ...base,
      method: 'GET',
      path: item,
      subject: S.getItem,
      operationId: `get${o.scope}Item`,
      ids: itemIds,
      status: 200,
      reply: RenovationItem,
      summary: `One item ${o.noun}`,
      errors: [401, 403, 404],
    },
    {
      ...base,
      method: 'PATCH',
      path: item,
      subject: S.updateItem,
      operationId: `update${o.scope}Item`,
      ids: itemIds,
      body: UpdateRenovationItemBody,
      documentedBody: documented.update,
      status: 200,
      reply: RenovationItem,
      summary: `Edit an item ${o.noun} (component type, count)`,
      errors: [400, 401, 403, 404],
    },
    {
      ...base,
      method: 'DELETE',
      path: item,
      subject: S.removeItem,
      operationId: `remove${o.scope}Item`,
      ids: itemIds,
      status: 200,
      reply: RenovationItem,
      summary: `Remove an item ${o.noun}`,
      errors: [401, 403, 404],
    },
    {
      ...base,
      method: 'GET',
      path: `${o.collection}/available-items`,
      subject: S.availableItems,
      operationId: `list${o.scope}AvailableItems`,
      ids: o.ids,
      status: 200,
      reply: z.array(AvailableItem),
      summary: `The component types a client may add ${o.noun} for this estate, each root with its selection tree`,
      errors: [401, 403, 404],
    },
  ];
}

/** A renovation's items: general, and per roof, room and staircase. */
export const renovationItemRoutes: RouteDef[] = [
  ...scopeRoutes({ collection: R, ids: ['renovation_id'], noun: 'in the general scope', scope: 'General', catalogueScope: 'general' }),
  ...scopeRoutes({
    collection: `${R}/roofs/{roof_id}`,
    ids: ['renovation_id', 'roof_id'],
    noun: 'on a roof',
    scope: 'Roof',
    catalogueScope: 'roof',
  }),
  ...scopeRoutes({
    collection: `${R}/rooms/{room_id}`,
    ids: ['renovation_id', 'room_id'],
    noun: 'in a room',
    scope: 'Room',
    catalogueScope: 'room',
  }),
  ...scopeRoutes({
    collection: `${R}/staircases/{staircase_id}`,
    ids: ['renovation_id', 'staircase_id'],
    noun: 'on a staircase',
    scope: 'Staircase',
    catalogueScope: 'staircase',
  }),
];
