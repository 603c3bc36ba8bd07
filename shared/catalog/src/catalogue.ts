import type { PropertyDescription } from '@renopath/contracts';
import { evaluate } from './predicates.ts';
import { NODES } from './tree.ts';
import type { CLIENT_SCOPES, CatalogueNode, Scope } from './types.ts';

/** Bumped whenever the tree, a rule or a data row changes: results name the catalogue they were priced with. */
export const CATALOGUE_VERSION = '2026.1.0';

export type ClientScope = (typeof CLIENT_SCOPES)[number];

export class UnknownComponentTypeError extends Error {
  constructor(readonly renovation_component_type: string) {
    super(`unknown renovation_component_type ${renovation_component_type}`);
  }
}

export function findNode(type: string): CatalogueNode | undefined {
  return NODES.get(type);
}

export function getNode(type: string): CatalogueNode {
  const node = NODES.get(type);
  if (!node) throw new UnknownComponentTypeError(type);
  return node;
}

export function allNodes(): CatalogueNode[] {
  return [...NODES.values()];
}

export function rootsOf(scope: Scope): CatalogueNode[] {
  return allNodes().filter((n) => n.scope === scope && n.parent === null);
}

export function isLeaf(node: CatalogueNode): boolean {
  return node.children.length === 0;
}

/** The leaves under a node (the node itself when it is a leaf), in display order. */
export function leavesOf(node: CatalogueNode): CatalogueNode[] {
  if (isLeaf(node)) return [node];
  return node.children.flatMap((c) => leavesOf(getNode(c)));
}

/** The leaf priced when a client picks an inner node: the first in display order, the common choice. */
export function defaultLeaf(node: CatalogueNode): CatalogueNode {
  let leaf: CatalogueNode = node;
  while (leaf.children.length > 0) leaf = getNode(leaf.children[0]!);
  return leaf;
}

export function rootOf(node: CatalogueNode): CatalogueNode {
  let current = node;
  while (current.parent !== null) current = getNode(current.parent);
  return current;
}

/** Clients add nodes in the four client scopes; `derived` nodes are added by the system only. */
export function isAllowedInScope(type: string, scope: string): boolean {
  const node = findNode(type);
  return node !== undefined && node.scope !== 'derived' && node.scope === scope;
}

/** True when the home can physically take the leaf (its applicability conditions hold; unknowns pass). */
export function appliesTo(node: CatalogueNode, estate: Partial<PropertyDescription>): boolean {
  return node.requirements.every((r) => r.applies_if === undefined || evaluate(r.applies_if, estate));
}

/** Roots of a client scope with at least one leaf the estate can take (e.g. no pitched-roof works on a flat roof). */
export function availableRoots(scope: ClientScope, estate: Partial<PropertyDescription> = {}): CatalogueNode[] {
  return rootsOf(scope).filter((root) => leavesOf(root).some((leaf) => appliesTo(leaf, estate)));
}

export interface SelectionTreeNode {
  renovation_component_type: string;
  name: string;
  unit: string;
  is_selected: boolean;
  children: SelectionTreeNode[];
}

/**
 * The API's selection tree: the subtree of `rootType`'s root with `is_selected` along the path to
 * `selectedType`. With an estate, branches the home cannot take are left out (never the selected path).
 */
export function selectionTree(rootType: string, selectedType?: string, estate?: Partial<PropertyDescription>): SelectionTreeNode {
  const root = rootOf(getNode(rootType));
  const path = new Set<string>();
  if (selectedType !== undefined) {
    const selected = getNode(selectedType);
    if (rootOf(selected) !== root) throw new Error(`${selectedType} is not under ${root.renovation_component_type}`);
    for (let n: CatalogueNode | undefined = selected; n; n = n.parent ? getNode(n.parent) : undefined) {
      path.add(n.renovation_component_type);
    }
  }
  const keep = (node: CatalogueNode): boolean =>
    estate === undefined || path.has(node.renovation_component_type) || leavesOf(node).some((l) => appliesTo(l, estate));
  const toTree = (node: CatalogueNode): SelectionTreeNode => ({
    renovation_component_type: node.renovation_component_type,
    name: node.name,
    unit: node.unit,
    is_selected: path.has(node.renovation_component_type),
    children: node.children.map(getNode).filter(keep).map(toTree),
  });
  return toTree(root);
}

/** Available items of a scope: each allowed root with its selection tree, nothing selected. */
export function availableItems(scope: ClientScope, estate: Partial<PropertyDescription> = {}): SelectionTreeNode[] {
  return availableRoots(scope, estate).map((root) => selectionTree(root.renovation_component_type, undefined, estate));
}
