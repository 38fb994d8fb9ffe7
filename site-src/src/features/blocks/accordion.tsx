// The accordion block (hydrated by the Accordion island): items of {title, Markdown body (rendered
// to HTML by the generator)} as disclosure widgets. Each item toggles on its own; the island keeps
// which are open so the state survives re-renders, and works as plain <details> before hydration.
// Server markup: templates/islands/accordion.html (every item closed).
import { useState, type ReactElement, type SyntheticEvent } from 'react';
import * as z from 'zod/mini';
import { nullableString } from './schemas';

export const schema = z.object({
  heading: nullableString,
  items: z.array(z.object({ title: z.string(), bodyHtml: z.string() })),
});

export type AccordionProps = z.infer<typeof schema>;

/** The set of open items after item `index` was toggled to `open`. */
export function toggled(openItems: ReadonlySet<number>, index: number, open: boolean): Set<number> {
  const next = new Set(openItems);
  if (open) next.add(index);
  else next.delete(index);
  return next;
}

export default function Accordion({ heading, items }: AccordionProps): ReactElement {
  const [openItems, setOpenItems] = useState<Set<number>>(() => new Set());
  const Tag = heading ? 'section' : 'div';
  return (
    <Tag className="accordion">
      <div className="container accordion__inner">
        {heading && <h2 className="accordion__heading">{heading}</h2>}
        {items.map((item, i) => (
          <details
            className="accordion__item"
            key={i}
            open={openItems.has(i)}
            onToggle={(event: SyntheticEvent<HTMLDetailsElement>) => {
              const open = event.currentTarget.open;
              setOpenItems((current) => (current.has(i) === open ? current : toggled(current, i, open)));
            }}
          >
            <summary className="accordion__summary">{item.title}</summary>
            <div className="accordion__body rich-text" dangerouslySetInnerHTML={{ __html: item.bodyHtml }} />
          </details>
        ))}
      </div>
    </Tag>
  );
}
