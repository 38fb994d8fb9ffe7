// The product options' after-hydration parts, loaded once the island has hydrated so the page's
// JavaScript budget does not carry them: the stock marks on sizes/lengths (option-availability.ts),
// back/forward between colourways, and the colour change without a full reload (the spec: "changing
// colour reloads media, attributes, badges"). Until it loads a swatch is an ordinary link.
// Every colourway already has its own static page (/p/{id}/{slug}/{Colour}), which is the single
// source of truth: this fetches that page, takes its gallery and product details (badges, price,
// attributes) and its two island props, and shows them here. The static page stays what crawlers and
// no-JS visitors get; the current page only borrows it.
import type { MouseEvent } from 'react';
import {
  resolveSelection,
  schema as optionsSchema,
  selectionFromQuery,
  setQuery,
  type ProductOptionsProps,
} from './selection';
import { store } from '../../lib/store';

export { colourInStock, optionAvailability } from '../../lib/option-availability';

/** The product-details children that belong to islands: they stay (React owns them), the rest swaps. */
const ISLAND_HOLDERS = '.pdp__options, [data-product-actions]';

/**
 * An island's props in a fetched page. Not the registry's reader: importing the entry chunk from this
 * lazy chunk makes the bundler split out a runtime chunk that every page would then load.
 */
function islandProps(doc: Document, scope: Element, name: string): unknown {
  const id = scope.querySelector(`[data-island="${name}"]`)?.getAttribute('data-island-id');
  const script = Array.from(doc.querySelectorAll('script[data-island-props]')).find(
    (candidate) => candidate.getAttribute('data-island-props') === id,
  );
  if (script === undefined) throw new Error(`the colourway page has no ${name} props`);
  return JSON.parse(script.textContent ?? '') as unknown;
}

/** Replaces every non-island child of `live` with the matching children of `next`, in order. */
function swapChildren(live: Element, next: Element): void {
  const kept = Array.from(live.children).filter((child) => child.matches(ISLAND_HOLDERS));
  for (const child of Array.from(live.children)) if (!kept.includes(child)) child.remove();
  let slot = 0;
  for (const child of Array.from(next.children)) {
    if (child.matches(ISLAND_HOLDERS)) {
      slot += 1;
      continue;
    }
    live.insertBefore(document.importNode(child, true), kept[slot] ?? null);
  }
}

function swapHead(next: Document): void {
  document.title = next.title;
  for (const selector of ['link[rel="canonical"]', 'meta[name="description"]']) {
    const live = document.head.querySelector(selector);
    const fresh = next.head.querySelector(selector);
    if (live !== null && fresh !== null) live.replaceWith(document.importNode(fresh, true));
  }
}

/**
 * Shows the colourway at `href` (its page URL, with Size/Length in the query): fetches its static
 * page, swaps media and details, hands its props to the islands and keeps the size/length chosen in
 * the query where the colourway offers them. `push` adds a history entry (a swatch click); without it
 * the URL is already there (back/forward). Anything unexpected falls back to a full page load.
 */
export async function showColourway(productId: number, href: string, push: boolean): Promise<void> {
  const target = new URL(href, window.location.href);
  try {
    const response = await fetch(target.pathname, { headers: { Accept: 'text/html' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const next = new DOMParser().parseFromString(await response.text(), 'text/html');
    const nextPdp = next.querySelector(`.pdp[data-product-id="${productId}"]`);
    const livePdp = document.querySelector(`.pdp[data-product-id="${productId}"]`);
    const nextInfo = nextPdp?.querySelector('.pdp__info');
    const liveInfo = livePdp?.querySelector('.pdp__info');
    const nextGallery = nextPdp?.querySelector('[data-gallery]');
    const liveGallery = livePdp?.querySelector('[data-gallery]');
    if (!nextPdp || !nextInfo || !liveInfo || !nextGallery || !liveGallery) throw new Error('not a product page');
    const options = optionsSchema.parse(islandProps(next, nextPdp, 'ProductOptions'));
    // Already loaded by the page; imported here so this chunk's preload list stays short.
    // The actions props are read through their island module, as the registry loads it, so the
    // island's chunk is the one both reach: importing the feature module here would make it a
    // second entry and put a one-line facade chunk on every product page.
    // eslint-disable-next-line no-restricted-syntax -- the one lazy import of an island from a feature
    const { schema: actionsSchema } = await import('../../islands/product-actions');
    const actions = actionsSchema.parse(islandProps(next, nextPdp, 'ProductActions'));
    const chosen = selectionFromQuery(options, target.search);
    const selection = resolveSelection(options, chosen.sizeId, chosen.lengthId);
    // A size or length this colourway does not offer leaves the query.
    setQuery(target, { Size: selection.sizeLabel, Length: selection.lengthLabel });
    if (push) window.history.pushState(window.history.state, '', target);
    else window.history.replaceState(window.history.state, '', target);
    liveGallery.replaceWith(document.importNode(nextGallery, true));
    swapChildren(liveInfo, nextInfo);
    swapHead(next);
    store.getState().showColourway(productId, { options, actions }, selection);
  } catch {
    // A colourway page that cannot be read is still a page: go there the ordinary way.
    if (push) window.location.assign(target.href);
    else window.location.reload();
  }
}

const samePath = (url: string): boolean => new URL(url, window.location.href).pathname === window.location.pathname;

/**
 * After back/forward: shows the colourway the URL names (fetched like a swatch click) or, on the same
 * colourway, the Size/Length in its query. A URL of another page leaves the product page alone.
 */
export function followHistory(productId: number, pageProps: ProductOptionsProps): void {
  const shown = store.getState().colourway[productId]?.options ?? pageProps;
  const colour = shown.colours.find((c) => samePath(c.url));
  if (colour === undefined) return;
  if (!colour.selected) {
    void showColourway(productId, window.location.href, false);
    return;
  }
  const chosen = selectionFromQuery(shown, window.location.search);
  store.getState().setSelection(productId, resolveSelection(shown, chosen.sizeId, chosen.lengthId));
}

/** A plain left click on a swatch shows the colourway in place; anything else is an ordinary link. */
export function onSwatchClick(event: MouseEvent<HTMLAnchorElement>, productId: number, selected: boolean): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  if (!selected) void showColourway(productId, event.currentTarget.href, true);
}

/** The colourway's own price markup, per price holder (a colour change brings a new holder). */
const colourwayPrices = new WeakMap<Element, string>();

/**
 * Shows the price of the variant chosen (size or length recompute the price): the page renders the
 * price of each variant that costs something other than the colourway in a
 * `<template data-variant-price="{id}">`; any other choice shows the colourway's price again.
 */
export function showVariantPrice(variantId: number | null, root: ParentNode = document): void {
  const holder = root.querySelector('[data-pdp-price]');
  if (holder === null) return;
  if (!colourwayPrices.has(holder)) colourwayPrices.set(holder, holder.innerHTML);
  const variant = variantId === null ? null : root.querySelector<HTMLTemplateElement>(`template[data-variant-price="${variantId}"]`);
  const markup = variant?.innerHTML ?? colourwayPrices.get(holder) ?? '';
  if (holder.innerHTML !== markup) holder.innerHTML = markup;
}

/** Follows the chosen variant of the page's product from the moment this chunk loads. */
function followVariantPrice(): void {
  const productId = Number(document.querySelector('.pdp[data-product-id]')?.getAttribute('data-product-id'));
  if (!Number.isInteger(productId) || productId <= 0) return;
  const chosen = (): number | null => store.getState().selection[productId]?.variantId ?? null;
  showVariantPrice(chosen());
  store.subscribe((state, previous) => {
    if (state.selection[productId] !== previous.selection[productId]) showVariantPrice(chosen());
  });
}

// Loaded once per product page, after the options hydrate: start following there and then.
followVariantPrice();
