// The error states of a client-side screen whose subject cannot be shown: not found (an unknown
// order), currently unavailable (the API down or unreachable) or another error. Each is the error
// page's own content (templates/partials/error_body.html, generator/src/context.rs), in place of
// the shell page's heading, so a shopper sees one state, never "Order confirmation" over it.
import { useEffect, type ReactElement } from 'react';

export const NOT_FOUND_TITLE = 'Page not found';
export const NOT_FOUND = 'This page could not be found';
export const UNAVAILABLE_TITLE = 'Currently unavailable';
/** Not given by the spec: a shopper is told it is temporary (docs/decisions.md). */
export const UNAVAILABLE = 'Please try again in a few minutes';
export const ERROR_TITLE = 'An error occured';
export const ERROR = 'Please go back or try again';

/**
 * The state for an API status: 404 not found; 503, 502, 504 or no answer at all (status 0)
 * currently unavailable; anything else an error.
 */
export function errorStateFor(status: number): { status: number; title: string; message: string } {
  if (status === 404) return { status, title: NOT_FOUND_TITLE, message: NOT_FOUND };
  if (status === 0 || status === 502 || status === 503 || status === 504) return { status: 503, title: UNAVAILABLE_TITLE, message: UNAVAILABLE };
  return { status: 500, title: ERROR_TITLE, message: ERROR };
}

const LINKS: readonly [string, string][] = [
  ['Home', '/'],
  ['Women', '/browse/womens'],
  ['Men', '/browse/mens'],
  ['Other Stuff', '/other-stuff'],
];

export function NotFoundState({ prefix }: { prefix: string }): ReactElement {
  return <ErrorState prefix={prefix} status={404} />;
}

export function ErrorState({ prefix, status }: { prefix: string; status: number }): ReactElement {
  const state = errorStateFor(status);
  useEffect(() => {
    // The static page head names the screen's found state; this state has its own heading.
    const head = document.querySelector<HTMLElement>('.shell .page-head');
    if (head !== null) head.hidden = true;
    const title = document.title;
    const store = title.includes(' | ') ? title.slice(title.lastIndexOf(' | ')) : '';
    document.title = `${state.title}${store}`;
    return () => {
      if (head !== null) head.hidden = false;
      document.title = title;
    };
  }, [state.title]);
  return (
    <div className="error-page" data-status={state.status}>
      <p className="error-page__status" aria-hidden="true">
        {state.status}
      </p>
      <h1 className="page-title">{state.title}</h1>
      <p className="error-page__message" role="alert">
        {state.message}
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
