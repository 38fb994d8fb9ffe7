// zod/mini schemas shared by several block islands (the blocks' shapes, as
// generator/src/blocks.rs prepares them).
import * as z from 'zod/mini';

export const nullableString = z.nullish(z.string());

export const image = z.object({ url: z.string(), alt: z.string(), srcset: z.optional(z.nullable(z.string())) });

/** A renderable call to action (only those reach the page). */
export const cta = z.object({
  text: z.string(),
  link: z.string(),
  style: z.string(),
  buttonType: z.enum(['button', 'submit', 'reset']),
  customId: nullableString,
});

export type Cta = z.infer<typeof cta>;

export interface MenuNode {
  title: string;
  url?: string | null | undefined;
  textColour?: string | null | undefined;
  textBold?: boolean | undefined;
  underline?: boolean | undefined;
  image?: { url: string; alt: string } | null | undefined;
  children: MenuNode[];
}

export const menuNode: z.ZodMiniType<MenuNode> = z.object({
  title: z.string(),
  url: nullableString,
  textColour: nullableString,
  textBold: z.optional(z.boolean()),
  underline: z.optional(z.boolean()),
  image: z.nullish(z.object({ url: z.string(), alt: z.string() })),
  get children() {
    return z.array(menuNode);
  },
});

/** Inline style of a menu link: colour, bold, underline (React style object). */
export function linkStyle(node: { textColour?: string | null | undefined; textBold?: boolean | undefined; underline?: boolean | undefined }):
  | { color?: string; fontWeight?: number; textDecoration?: string }
  | undefined {
  const style: { color?: string; fontWeight?: number; textDecoration?: string } = {};
  if (node.textColour) style.color = node.textColour;
  if (node.textBold) style.fontWeight = 700;
  if (node.underline) style.textDecoration = 'underline';
  return Object.keys(style).length > 0 ? style : undefined;
}
