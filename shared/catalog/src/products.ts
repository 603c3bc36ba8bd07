import { getNode } from './catalogue.ts';
import { DATA, type ProductRow } from './data.ts';

export type { ProductRow };

/** The 2025 product a window or glazing leaf stands for (products.json), or undefined for other nodes. */
export function productFor(type: string): ProductRow | undefined {
  getNode(type);
  return DATA.products.rows.find((r) => r.nodes.includes(type));
}
