// Mobile menu, variant two (< 768 px): at most 12 top categories that have children, as tabs;
// choosing one resets its sections with the first expanded; each section toggles. Items without
// children are plain links below. Closes on link clicks and route changes, stays closed on the
// preview route. Server markup: templates/islands/mobile-menu-two.html (first category chosen).
import { useState, type ReactElement, type SyntheticEvent } from 'react';
import * as z from 'zod/mini';
import { menuItem, navigationClick } from '../../lib/data-layer';
import { AuxLinks, MenuShell, useMenuOpen } from './mobile-menu-shell';
import { linkStyle, menuNode, type MenuNode } from './schemas';

export const schema = z.object({
  prefix: z.enum(['', '/us', '/eu']),
  items: z.array(menuNode),
  resetMs: z.number(),
  maxCategories: z.number(),
});

export type MobileMenuTwoProps = z.infer<typeof schema>;

/** The top categories the menu shows: those with children, at most `max`. */
export function categoriesOf(items: readonly MenuNode[], max: number): MenuNode[] {
  return items.filter((item) => item.children.length > 0).slice(0, max);
}

function Link({ node }: { node: MenuNode }): ReactElement {
  return (
    <a className="mnav__link" href={node.url ?? '#'} style={linkStyle(node)} data-title={node.title}>
      {node.title}
    </a>
  );
}

export default function MobileMenuTwo({ prefix, items, maxCategories }: MobileMenuTwoProps): ReactElement {
  const [open, setOpen] = useMenuOpen();
  const categories = categoriesOf(items, maxCategories);
  const [chosen, setChosen] = useState(0);
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set([0]));
  const category = categories[chosen];
  const plain = items.filter((item) => item.children.length === 0);

  const choose = (index: number): void => {
    setChosen(index);
    setExpanded(new Set([0]));
    const picked = categories[index];
    if (picked !== undefined) menuItem([picked.title]);
  };

  return (
    <MenuShell
      variant="two"
      open={open}
      onOpenChange={setOpen}
      onLinkClick={(anchor) => {
        navigationClick([...(category ? [category.title] : []), anchor.dataset.title ?? anchor.textContent ?? '']);
        setOpen(false);
      }}
    >
      <ul className="mnav2__tabs">
        {categories.map((cat, i) => (
          <li key={i}>
            <button className="mnav2__tab" type="button" aria-pressed={i === chosen} onClick={() => choose(i)}>
              {cat.title}
            </button>
          </li>
        ))}
      </ul>
      {category !== undefined && (
        <div className="mnav2__sections">
          {category.image && (
            <img className="mnav2__image" src={category.image.url} alt={category.image.alt} width="600" height="200" loading="lazy" decoding="async" />
          )}
          {category.url && (
            <a className="mnav__link mnav__link--all" href={category.url}>
              {`Shop all ${category.title}`}
            </a>
          )}
          {category.children.map((section, i) =>
            section.children.length > 0 ? (
              <details
                className="mnav2__section"
                key={`${chosen}-${i}`}
                open={expanded.has(i)}
                onToggle={(event: SyntheticEvent<HTMLDetailsElement>) => {
                  const isOpen = event.currentTarget.open;
                  setExpanded((current) => {
                    if (current.has(i) === isOpen) return current;
                    const next = new Set(current);
                    if (isOpen) next.add(i);
                    else next.delete(i);
                    return next;
                  });
                }}
              >
                <summary className="mnav2__summary">{section.title}</summary>
                <ul className="mnav__list">
                  {section.url && (
                    <li className="mnav__item">
                      <a className="mnav__link mnav__link--all" href={section.url}>
                        {`Shop all ${section.title}`}
                      </a>
                    </li>
                  )}
                  {section.children.map((node, j) => (
                    <li className="mnav__item" key={j}>
                      <Link node={node} />
                    </li>
                  ))}
                </ul>
              </details>
            ) : (
              <div className="mnav2__section mnav2__section--link" key={`${chosen}-${i}`}>
                <Link node={section} />
              </div>
            ),
          )}
        </div>
      )}
      {plain.length > 0 && (
        <ul className="mnav__list mnav2__plain">
          {plain.map((node, i) => (
            <li className="mnav__item" key={i}>
              <Link node={node} />
            </li>
          ))}
        </ul>
      )}
      <AuxLinks prefix={prefix} items={items} />
    </MenuShell>
  );
}
