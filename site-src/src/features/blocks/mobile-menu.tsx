// Mobile menu, variant one (< 768 px): three layers. Choosing an item with children slides to
// the next layer, Back returns; the layers reset 500 ms after the menu closes; any link click and
// any route change close it; it stays closed on the preview route. Pushes menu_item when a layer
// opens and navigation_click on links. Server markup: templates/islands/mobile-menu.html.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { menuItem, navigationClick } from '../../lib/data-layer';
import { BlockIcon } from './icons';
import { AuxLinks, MenuShell, useMenuOpen } from './mobile-menu-shell';
import { linkStyle, menuNode, type MenuNode } from './schemas';

export const schema = z.object({
  prefix: z.enum(['', '/us', '/eu']),
  items: z.array(menuNode),
  resetMs: z.number(),
  maxCategories: z.number(),
});

export type MobileMenuProps = z.infer<typeof schema>;

/** Layers are 0 (top), 1 and 2: an item on the last layer is a link even if it has children. */
export const LAYERS = 3;

/** The nodes along `path` (indexes into each layer's list). */
export function nodesOnPath(items: readonly MenuNode[], path: readonly number[]): MenuNode[] {
  const out: MenuNode[] = [];
  let level: readonly MenuNode[] = items;
  for (const index of path) {
    const node = level[index];
    if (node === undefined) break;
    out.push(node);
    level = node.children;
  }
  return out;
}

function Layer(props: {
  nodes: readonly MenuNode[];
  depth: number;
  parent: MenuNode | undefined;
  /** The layer in view; the others are slid aside and inert, out of the Tab order. */
  current: boolean;
  onOpen: (index: number) => void;
  onBack: () => void;
}): ReactElement {
  const { nodes, depth, parent, current } = props;
  const back = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  // Focus follows the slide: into a new layer at its Back button, and back out at the item that
  // opened it (the button focused before is inert or gone, which would drop focus to the page).
  useEffect(() => {
    if (!current) return;
    (opener.current ?? back.current)?.focus({ preventScroll: true });
    opener.current = null;
  }, [current]);
  return (
    <div className="mnav__layer" data-depth={depth} inert={!current}>
      {parent !== undefined && (
        <div className="mnav__layer-head">
          <button className="mnav__back" type="button" ref={back} onClick={props.onBack}>
            <BlockIcon name="chevron-left" />
            <span>Back</span>
          </button>
          <p className="mnav__layer-title">{parent.title}</p>
          {parent.image && (
            <img className="mnav__layer-image" src={parent.image.url} alt={parent.image.alt} width="600" height="200" loading="lazy" decoding="async" />
          )}
        </div>
      )}
      <ul className="mnav__list">
        {parent !== undefined && parent.url && (
          <li className="mnav__item">
            <a className="mnav__link mnav__link--all" href={parent.url}>
              {`Shop all ${parent.title}`}
            </a>
          </li>
        )}
        {nodes.map((node, i) =>
          node.children.length > 0 && depth < LAYERS - 1 ? (
            <li className="mnav__item" key={i}>
              <button
                className="mnav__next"
                type="button"
                style={linkStyle(node)}
                onClick={(event) => {
                  opener.current = event.currentTarget;
                  props.onOpen(i);
                }}
              >
                <span>{node.title}</span>
                <BlockIcon name="chevron" />
              </button>
            </li>
          ) : (
            <li className="mnav__item" key={i}>
              <a className="mnav__link" href={node.url ?? '#'} style={linkStyle(node)} data-title={node.title}>
                {node.title}
              </a>
            </li>
          ),
        )}
      </ul>
    </div>
  );
}

export default function MobileMenu({ prefix, items, resetMs }: MobileMenuProps): ReactElement {
  const [open, setOpen] = useMenuOpen();
  const [path, setPath] = useState<number[]>([]);

  // Layers reset a moment after the menu closes, once it has slid away.
  useEffect(() => {
    if (open || path.length === 0) return undefined;
    const timer = window.setTimeout(() => setPath([]), resetMs);
    return () => window.clearTimeout(timer);
  }, [open, path.length, resetMs]);

  const trail = nodesOnPath(items, path);
  const layers: ReactElement[] = [
    <Layer key="0" nodes={items} depth={0} parent={undefined} current={path.length === 0} onOpen={(i) => openLayer([i])} onBack={() => undefined} />,
  ];
  trail.forEach((node, depth) => {
    if (depth + 1 < LAYERS) {
      layers.push(
        <Layer
          key={depth + 1}
          nodes={node.children}
          depth={depth + 1}
          parent={node}
          current={path.length === depth + 1}
          onOpen={(i) => openLayer([...path.slice(0, depth + 1), i])}
          onBack={() => setPath(path.slice(0, depth))}
        />,
      );
    }
  });

  function openLayer(next: number[]): void {
    setPath(next);
    menuItem(nodesOnPath(items, next).map((n) => n.title));
  }

  return (
    <MenuShell
      variant="one"
      open={open}
      onOpenChange={setOpen}
      onLinkClick={(anchor) => {
        navigationClick([...trail.map((n) => n.title), anchor.dataset.title ?? anchor.textContent ?? '']);
        setOpen(false);
      }}
    >
      <div className="mnav__layers" style={{ '--mnav-depth': path.length } as Record<string, number>}>
        {layers}
      </div>
      <AuxLinks prefix={prefix} items={items} />
    </MenuShell>
  );
}
