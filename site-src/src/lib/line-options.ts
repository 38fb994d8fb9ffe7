// A line's options as every screen shows them (the bag, the checkout, the wishlist, an order):
// pure rules over the shared line shape, so shared UI can use them without the bag's calls.
import type { LineItem } from './store';

/** The option value of a line (Color/Design, Size, Length), or null. */
export function optionValue(line: Pick<LineItem, 'options'>, name: string): string | null {
  return line.options.find((o) => o.name === name)?.value ?? null;
}

/** An option's name as every screen shows it: "Colour" (the data's "Color" is only its name there). */
export function optionLabel(name: string): string {
  return name === 'Color' ? 'Colour' : name;
}

/**
 * Attributes in the spec's order: Color (Design for gift cards), Size (not gift cards), Length —
 * for the bag's lines and the checkout's, which share the option shape.
 */
export function lineAttributes(line: Pick<LineItem, 'options' | 'is_gift_card'>): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = [];
  const colour = optionValue(line, line.is_gift_card ? 'Design' : 'Color') ?? optionValue(line, 'Color');
  if (colour !== null) out.push({ label: line.is_gift_card ? 'Design' : optionLabel('Color'), value: colour });
  const size = optionValue(line, 'Size');
  if (size !== null && !line.is_gift_card) out.push({ label: 'Size', value: size });
  const length = optionValue(line, 'Length');
  if (length !== null) out.push({ label: 'Length', value: length });
  return out;
}
