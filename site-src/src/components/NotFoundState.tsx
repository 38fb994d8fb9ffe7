// The not-found state of a client-side screen whose subject does not exist (an unknown order): the
// 404 page's own content (templates/partials/error_body.html, generator/src/context.rs), in place of
// the shell page's heading, so a shopper sees one state, never "Order confirmation" over it.
import { useEffect, type ReactElement } from 'react';

export const NOT_FOUND_TITLE = 'Page not found';
export const NOT_FOUND = 'This page could not be found';

const LINKS: readonly [string, string][] = [
  ['Home', '/'],
  ['Women', '/browse/womens'],
  ['Men', '/browse/mens'],
  ['Other Stuff', '/other-stuff'],
];

export function NotFoundState({ prefix }: { prefix: string }): ReactElement {
  useEffect(() => {
    // The static page head names the screen's found state; this state has its own heading.
    const head = document.querySelector<HTMLElement>('.shell .page-head');
    if (head !== null) head.hidden = true;
    const title = document.title;
    const store = title.includes(' | ') ? title.slice(title.lastIndexOf(' | ')) : '';
    document.title = `${NOT_FOUND_TITLE}${store}`;
    return () => {
      if (head !== null) head.hidden = false;
      document.title = title;
    };
  }, []);
  return (
    <div className="error-page" data-status="404">
      <p className="error-page__status" aria-hidden="true">
        404
      </p>
      <h1 className="page-title">{NOT_FOUND_TITLE}</h1>
      <p className="error-page__message" role="alert">
        {NOT_FOUND}
      </p>
      <ul className="error-page__links">
        {LINKS.map(([label, path], i) => (
          <li key={path}>
            <a className={`btn ${i === 0 ? 'btn--primary' : 'btn--secondary'}`} href={path === '/' ? prefix || '/' : `${prefix}${path}`}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
