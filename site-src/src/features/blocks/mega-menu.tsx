// The desktop mega menu (≥ 768 px; hydrated by the MegaMenu island): top-level links whose columns
// hold link groups or a jump-off card. A panel opens on hover over a top-level link that has
// columns and closes on any click; a toggle button beside the link opens it from the keyboard, and
// Escape closes it. Clicks push navigation_click with the breadcrumb of titles. Before hydration
// CSS opens panels on :hover / :focus-within. Server markup: templates/islands/mega-menu.html (all
// panels closed).
import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { navigationClick } from '../../lib/data-layer';
import { BlockIcon } from './icons';
import { linkStyle, nullableString } from './schemas';

const navLink = z.object({
  url: z.string(),
  title: z.string(),
  textColour: nullableString,
  textBold: z.boolean(),
  underline: z.boolean(),
  featuredText: nullableString,
  titleSuperscriptText: nullableString,
});

export const schema = z.object({
  topLevelLinks: z.array(
    z.object({
      link: navLink,
      columns: z.array(
        z.object({
          jumpOff: z.optional(
            z.object({
              image: z.object({ url: z.string(), alt: z.string() }),
              text: nullableString,
              url: z.string(),
              imageCaptionText: nullableString,
              imageAltText: nullableString,
            }),
          ),
          linkGroups: z.array(z.object({ title: nullableString, links: z.array(navLink) })),
        }),
      ),
    }),
  ),
});

export type MegaMenuProps = z.infer<typeof schema>;
type Top = MegaMenuProps['topLevelLinks'][number];

function Panel({ top, onNavigate }: { top: Top; onNavigate: (titles: string[]) => void }): ReactElement {
  return (
    <div className="mega__panel">
      <div className="container mega__columns">
        {top.columns.map((col, ci) => (
          <div className="mega__col" key={ci}>
            {col.jumpOff ? (
              <a
                className="mega__jumpoff"
                href={col.jumpOff.url}
                onClick={() => onNavigate([top.link.title, col.jumpOff?.text ?? col.jumpOff?.imageCaptionText ?? ''])}
              >
                <span className="mega__jumpoff-media">
                  <img
                    src={col.jumpOff.image.url}
                    alt={col.jumpOff.imageAltText ?? col.jumpOff.image.alt}
                    width="300"
                    height="400"
                    loading="lazy"
                    decoding="async"
                  />
                </span>
                {col.jumpOff.imageCaptionText && <span className="mega__jumpoff-caption">{col.jumpOff.imageCaptionText}</span>}
                {col.jumpOff.text && <span className="mega__jumpoff-text">{col.jumpOff.text}</span>}
              </a>
            ) : (
              col.linkGroups.map((group, gi) => (
                <div className="mega__group" key={gi}>
                  {group.title && <p className="mega__group-title">{group.title}</p>}
                  <ul className="mega__links">
                    {group.links.map((l, li) => (
                      <li key={li}>
                        <a
                          href={l.url}
                          style={linkStyle(l)}
                          onClick={() => onNavigate([top.link.title, ...(group.title ? [group.title] : []), l.title])}
                        >
                          {l.title}
                          {l.titleSuperscriptText && <sup>{l.titleSuperscriptText}</sup>}
                          {l.featuredText && <span className="mega__featured">{l.featuredText}</span>}
                        </a>
                      </li>
                    ))}
                  </ul>
                </div>
              ))
            )}
          </div>
        ))}
      </div>
    </div>
  );
}

export default function MegaMenu({ topLevelLinks }: MegaMenuProps): ReactElement {
  const [open, setOpen] = useState<number | null>(null);
  const toggles = useRef<(HTMLButtonElement | null)[]>([]);

  // Any click closes the menu (links navigate away; a click elsewhere dismisses it).
  useEffect(() => {
    if (open === null) return undefined;
    const close = (): void => setOpen(null);
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, [open]);

  const navigate = (titles: string[]): void => {
    navigationClick(titles);
    setOpen(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>, index: number): void => {
    if (event.key === 'Escape' && open === index) {
      setOpen(null);
      toggles.current[index]?.focus();
    }
  };

  return (
    <nav className="mega" aria-label="Main">
      <ul className="mega__list container">
        {topLevelLinks.map((top, i) => {
          const hasPanel = top.columns.length > 0;
          const isOpen = open === i;
          return (
            <li
              className={`mega__item${hasPanel ? ' mega__item--has-panel' : ''}${isOpen ? ' mega__item--open' : ''}`}
              key={i}
              onMouseEnter={hasPanel ? () => setOpen(i) : undefined}
              onMouseLeave={hasPanel ? () => setOpen((current) => (current === i ? null : current)) : undefined}
              onKeyDown={(event) => onKeyDown(event, i)}
            >
              <a className="mega__link" href={top.link.url} style={linkStyle(top.link)} onClick={() => navigate([top.link.title])}>
                {top.link.title}
              </a>
              {hasPanel && (
                <button
                  ref={(el) => {
                    toggles.current[i] = el;
                  }}
                  className="mega__toggle"
                  type="button"
                  aria-expanded={isOpen}
                  onClick={(event) => {
                    event.stopPropagation();
                    // A pointer reaching the toggle has opened the panel by hovering (a tap on a
                    // tablet fires the hover first too): its click opens, never closes what the
                    // same gesture opened. A key press (detail 0) toggles.
                    const byPointer = event.detail > 0;
                    setOpen((current) => (current === i && !byPointer ? null : i));
                  }}
                >
                  <BlockIcon name="chevron-down" size={16} />
                  <span className="visually-hidden">{`${top.link.title} menu`}</span>
                </button>
              )}
              {hasPanel && <Panel top={top} onNavigate={navigate} />}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
