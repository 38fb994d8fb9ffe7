// A content page's blocks, read from the page's own HTML: for screens and dialogs that show
// content-managed text (the cookie policy on /cookies, the size guide on the product page) without
// a second copy of it. Islands and scripts are dropped: they would not run there.

/** The blocks of a content page's HTML, or null when it is not a content page. */
export function pageBlocks(html: string): string | null {
  const blocks = new DOMParser().parseFromString(html, 'text/html').querySelector('.content-page .blocks');
  if (blocks === null) return null;
  blocks.querySelectorAll('[data-island], script').forEach((node) => node.remove());
  return blocks.innerHTML;
}

/** Fetches a content page and answers its blocks; a failed answer is an error. */
export async function loadPageBlocks(url: string): Promise<string | null> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return pageBlocks(await response.text());
}
