/** Text and attribute values: every character that could end a text run or an attribute is an entity. */
export const esc = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A label's colour from its place on the scale's ladder (best green, worst red), so every scale
 * (A+ to F in Flanders, A++++ to G in the Netherlands) gets the familiar gradient without a table per scale.
 */
export function labelColour(labels: readonly string[], label: string | null): string {
  const index = label === null ? -1 : labels.indexOf(label);
  if (index < 0 || labels.length === 0) return '#6b7780';
  const position = labels.length === 1 ? 0 : index / (labels.length - 1);
  return `hsl(${Math.round(130 - 130 * position)} 62% 36%)`;
}
