// The footer columns (hydrated by the FooterColumns island): the footer slot's link columns. On
// mobile each column toggles open and closed, one at a time unless `multiple`; from 768 px CSS
// shows every column open. Server markup: templates/islands/footer-columns.html (all open when
// `open`, else all closed).
import { useState, type ReactElement, type SyntheticEvent } from 'react';
import * as z from 'zod/mini';

export const schema = z.object({
  columns: z.array(
    z.object({
      title: z.string(),
      links: z.array(z.object({ text: z.string(), link: z.string(), openInNewTab: z.boolean() })),
    }),
  ),
  multiple: z.boolean(),
  open: z.boolean(),
});

export type FooterColumnsProps = z.infer<typeof schema>;

/** Open columns after column `index` was toggled to `open`: alone unless several may be open. */
export function nextOpen(current: ReadonlySet<number>, index: number, open: boolean, multiple: boolean): Set<number> {
  if (!open) {
    const next = new Set(current);
    next.delete(index);
    return next;
  }
  return multiple ? new Set([...current, index]) : new Set([index]);
}

export default function FooterColumns({ columns, multiple, open }: FooterColumnsProps): ReactElement {
  const [openCols, setOpenCols] = useState<Set<number>>(() => new Set(open ? columns.map((_, i) => i) : []));
  return (
    <nav className="footer-nav" aria-label="Footer">
      {columns.map((col, i) => (
        <details
          className="footer-col"
          key={i}
          open={openCols.has(i)}
          onToggle={(event: SyntheticEvent<HTMLDetailsElement>) => {
            const isOpen = event.currentTarget.open;
            setOpenCols((current) => (current.has(i) === isOpen ? current : nextOpen(current, i, isOpen, multiple)));
          }}
        >
          <summary className="footer-col__title">{col.title}</summary>
          <ul className="footer-col__links">
            {col.links.map((l, j) => (
              <li key={j}>
                {l.openInNewTab ? (
                  <a href={l.link} target="_blank" rel="noopener">
                    {l.text}
                  </a>
                ) : (
                  <a href={l.link}>{l.text}</a>
                )}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </nav>
  );
}
