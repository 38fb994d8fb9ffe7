// The island registry: finds `[data-island]` elements, loads their component lazily and hydrates
// them. The only place in the bundle that creates React roots.
//
// Page contract (written by the generator):
//   <div data-island="HeaderActions" data-island-id="i0">server markup</div>
//   <script type="application/json" data-island-props="i0">{…props…}</script>
// Optional `data-island-hydrate="load|idle|visible"` on the div overrides the default timing.
// After hydration commits, the registry sets `data-hydrated="true"` on the div (React owns only its
// children); on failure it sets `data-hydrated="false"` and logs console.error.
import { createElement, startTransition, useEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { islandLoader, type IslandLoader } from './modules';

export type HydrateWhen = 'load' | 'idle' | 'visible';

/** Above the fold on every page (the preview bar has no size until hydrated): hydrate at once. Every other island waits until it is visible. */
const EAGER = new Set(['HeaderActions', 'ShopperShell', 'ProductActions', 'ShopperScreen', 'PreviewBar']);

const STARTED = 'data-island-started';

function report(name: string, message: string, detail?: unknown): void {
  console.error(`[islands] ${name}: ${message}`, ...(detail === undefined ? [] : [detail]));
}

function readProps(el: Element, root: ParentNode): { ok: true; props: unknown } | { ok: false } {
  const id = el.getAttribute('data-island-id');
  const name = el.getAttribute('data-island') ?? '?';
  if (id === null) {
    report(name, 'missing data-island-id');
    return { ok: false };
  }
  const script = Array.from(root.querySelectorAll('script[data-island-props]')).find(
    (candidate) => candidate.getAttribute('data-island-props') === id,
  );
  if (script === undefined) {
    report(name, `no props ${id}`);
    return { ok: false };
  }
  try {
    return { ok: true, props: JSON.parse(script.textContent ?? '') as unknown };
  } catch (error) {
    report(name, `props ${id} not JSON`, error);
    return { ok: false };
  }
}

function whenToHydrate(el: Element, name: string): HydrateWhen {
  const asked = el.getAttribute('data-island-hydrate');
  if (asked === 'load' || asked === 'idle' || asked === 'visible') return asked;
  return EAGER.has(name) ? 'load' : 'visible';
}

function onIdle(run: () => void): void {
  if (typeof window.requestIdleCallback === 'function') {
    window.requestIdleCallback(run, { timeout: 2000 });
  } else {
    setTimeout(run, 200);
  }
}

function onVisible(el: Element, run: () => void): void {
  if (typeof IntersectionObserver !== 'function') {
    onIdle(run);
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        run();
      }
    },
    { rootMargin: '200px' },
  );
  observer.observe(el);
}

/** Renders nothing of its own: marks the container once React has committed the hydration. */
function HydrationMark({ el, done, children }: { el: Element; done: () => void; children?: ReactNode }) {
  useEffect(() => {
    el.setAttribute('data-hydrated', 'true');
    done();
  }, [el, done]);
  return children;
}

/**
 * Resolves in a new task. Islands whose chunks arrive together would otherwise check their props
 * and start hydrating in one microtask run, one long task; between tasks the browser can paint and
 * answer input.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Loads, checks the props of, and hydrates one island now. Resolves once it is hydrated or has failed. */
export async function hydrateIsland(el: Element, root: ParentNode = document): Promise<void> {
  const name = el.getAttribute('data-island') ?? '';
  const fail = (message: string, detail?: unknown): void => {
    report(name, message, detail);
    el.setAttribute('data-hydrated', 'false');
  };
  const loader: IslandLoader | undefined = islandLoader(name);
  if (loader === undefined) {
    fail('unknown island');
    return;
  }
  const read = readProps(el, root);
  if (!read.ok) {
    el.setAttribute('data-hydrated', 'false');
    return;
  }
  let mod;
  try {
    mod = await loader();
  } catch (error) {
    fail('module not loaded', error);
    return;
  }
  await nextTask();
  let props = read.props;
  if (mod.schema !== undefined) {
    const checked = mod.schema.safeParse(props);
    if (!checked.success) {
      fail('props not in schema', checked.error);
      return;
    }
    props = checked.data;
  }
  await new Promise<void>((resolve) => {
    const element = createElement(
      HydrationMark,
      { el, done: resolve },
      createElement(mod.default, props as Record<string, unknown>),
    );
    // In a transition React hydrates in slices of a few milliseconds, yielding to the browser
    // between them, instead of one task as long as the island (a listing's 48 cards).
    startTransition(() => {
      hydrateRoot(el, element, {
        // Mismatches between the static markup and the first render land here (React then re-renders
        // the island on the client): make them loud so the browser tests catch them.
        onRecoverableError(error, info) {
          report(name, `hydration error: ${String(error)}`, info.componentStack);
        },
        onUncaughtError(error, info) {
          fail(`render error: ${String(error)}`, info.componentStack);
          resolve();
        },
      });
    });
  });
}

/**
 * Finds every island under `root` and schedules its hydration. Returns one promise per island,
 * settled once that island is hydrated (or failed); lazy islands settle only when they hydrate.
 */
export function startIslands(root: ParentNode = document): Promise<void>[] {
  const pending: Promise<void>[] = [];
  for (const el of Array.from(root.querySelectorAll(`[data-island]:not([${STARTED}])`))) {
    el.setAttribute(STARTED, '');
    const name = el.getAttribute('data-island') ?? '';
    const when = whenToHydrate(el, name);
    pending.push(
      new Promise<void>((resolve) => {
        const run = (): void => {
          hydrateIsland(el, root).then(resolve, (error: unknown) => {
            report(name, 'failed to hydrate', error);
            resolve();
          });
        };
        if (when === 'load') run();
        else if (when === 'idle') onIdle(run);
        else onVisible(el, run);
      }),
    );
  }
  return pending;
}
