import { notFound } from '@renopath/platform';
import { newId, parse, idParam } from '@renopath/platform/service/handler-kit.ts';
import { RenovationItemBody, UpdateRenovationItemBody, type ItemPlacement } from '@renopath/contracts';
import type { Handler, RenovationsKit } from '../kit/renovations-kit.ts';
import type { RenovationDoc } from '../renovation-views/renovation-views.projection.ts';
import { renderAvailableItems, renderItem } from '../renovation-views/renovation-views.render.ts';

/** A renovation's items, by the place a path names (general, a roof, a room, a staircase). */
export function itemHandlers(kit: RenovationsKit): Record<'add' | 'list' | 'get' | 'update' | 'remove' | 'available', Handler> {
  const { renovationFor, placementOf, samePlace, run, current, year } = kit;
  const itemOf = (doc: RenovationDoc, placement: ItemPlacement, item_id: string) => {
    const item = doc.items.find((i) => i.item_id === item_id);
    if (!item || !samePlace(item.placement, placement)) throw notFound('renovation item');
    return item;
  };
  return {
    add: async (req) => {
      const { doc, estate } = await renovationFor(req);
      const placement = placementOf(req, estate);
      const body = parse(RenovationItemBody, req.body);
      const item_id = newId(req, 'renovation-item');
      await run(req, doc.id, { type: 'AddRenovationItem', renovation_id: doc.id, item_id, placement, ...body, estate, year: year() });
      return renderItem(await current(doc.id), itemOf(await current(doc.id), placement, item_id));
    },
    list: async (req) => {
      const { doc, estate } = await renovationFor(req);
      const placement = placementOf(req, estate);
      return doc.items.filter((i) => samePlace(i.placement, placement)).map((i) => renderItem(doc, i));
    },
    get: async (req) => {
      const { doc, estate } = await renovationFor(req);
      return renderItem(doc, itemOf(doc, placementOf(req, estate), idParam(req, 'item_id', 'renovation item')));
    },
    update: async (req) => {
      const { doc, estate } = await renovationFor(req);
      const placement = placementOf(req, estate);
      const item_id = idParam(req, 'item_id', 'renovation item');
      itemOf(doc, placement, item_id);
      const changes = parse(UpdateRenovationItemBody, req.body);
      await run(req, doc.id, { type: 'UpdateRenovationItem', renovation_id: doc.id, item_id, placement, changes, estate, year: year() });
      const after = await current(doc.id);
      return renderItem(after, itemOf(after, placement, item_id));
    },
    remove: async (req) => {
      const { doc, estate } = await renovationFor(req);
      const placement = placementOf(req, estate);
      const item_id = idParam(req, 'item_id', 'renovation item');
      const item = itemOf(doc, placement, item_id);
      await run(req, doc.id, { type: 'RemoveRenovationItem', renovation_id: doc.id, item_id, placement, estate, year: year() });
      return renderItem(doc, item);
    },
    available: async (req) => {
      const { estate } = await renovationFor(req);
      return renderAvailableItems(estate, placementOf(req, estate));
    },
  };
}
