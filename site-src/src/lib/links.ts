// Where a link leads: the page of this shop that it opens in this tab, if any. Shared by the
// progress bar (a click that loads a page) and link prefetch (a page worth fetching ahead).

/** The URL `link` opens when it is a page of this origin in this tab (no download, no other window). */
export function sameTabPage(link: Element, location: Location = window.location): URL | null {
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download') || (link.target !== '' && link.target !== '_self')) return null;
  const to = new URL(link.getAttribute('href') ?? '', location.href);
  return to.origin === location.origin && /^https?:$/.test(to.protocol) ? to : null;
}
