// Canonical form of an HTML fragment for parity checks: comments dropped, whitespace runs collapsed,
// attributes sorted, class tokens sorted, inline styles tidied; one node per line for readable diffs.
// Adjacent text nodes stay separate on purpose: React's first render expects `a<!-- -->b` as two
// text nodes, so a template that prints "ab" as one would fail hydration; this keeps that visible.

interface Parser {
  createElement(tag: 'template'): { innerHTML: string; content: { childNodes: ArrayLike<Node> } };
}

function normaliseStyle(value: string): string {
  return value
    .split(';')
    .map((decl) => decl.trim())
    .filter((decl) => decl !== '')
    .map((decl) => {
      const colon = decl.indexOf(':');
      if (colon < 0) return decl;
      return `${decl.slice(0, colon).trim().toLowerCase()}:${decl.slice(colon + 1).trim()}`;
    })
    .join(';');
}

function normaliseAttribute(name: string, value: string): string {
  if (name === 'class') return value.split(/\s+/).filter(Boolean).sort().join(' ');
  if (name === 'style') return normaliseStyle(value);
  return value;
}

function lines(nodes: ArrayLike<Node>, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  for (const node of Array.from(nodes)) {
    if (node.nodeType === 3) {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ');
      if (text !== '') out.push(`${pad}#text ${JSON.stringify(text)}`);
    } else if (node.nodeType === 1) {
      const el = node as Element;
      // React 19 emits `<link rel="preload" as="image">` for eager images; in a page it hoists them
      // into <head>, so they are never part of an island's own DOM.
      if (el.localName.toLowerCase() === 'link' && el.getAttribute('rel') === 'preload') continue;
      const attrs = Array.from(el.attributes)
        .map((attr) => [attr.name.toLowerCase(), normaliseAttribute(attr.name.toLowerCase(), attr.value)] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, value]) => ` ${name}=${JSON.stringify(value)}`)
        .join('');
      const tag = el.localName.toLowerCase();
      out.push(`${pad}<${tag}${attrs}>`);
      const children = tag === 'template' ? (el as HTMLTemplateElement).content.childNodes : el.childNodes;
      lines(children, depth + 1, out);
    }
    // Comments (React's text separators and markers) and anything else are dropped.
  }
}

/** Normalises `html` using `doc` (any DOM document: the test environment's or a happy-dom Window's). */
export function normaliseHtml(html: string, doc: Parser | Document): string {
  const template = (doc as Parser).createElement('template');
  template.innerHTML = html;
  const out: string[] = [];
  lines(template.content.childNodes, 0, out);
  return out.join('\n');
}
