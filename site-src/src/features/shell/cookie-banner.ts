// The cookie-consent banner of a first visit: laid over the foot of the window (nothing on the page
// moves), it asks for consent to analytics cookies until the shopper accepts or refuses; the choice
// can be changed on /cookies. Loaded only when no choice is stored; plain DOM (no React root), so
// the chunk stays small.
import { saveConsent } from './consent';

const TITLE = 'We use cookies';
const TEXT =
  'Strictly necessary cookies run the shop (your bag, sign-in and country). With your consent we also use analytics cookies to learn how the shop is used. You can change your choice at any time in ';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ''): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}

/** Shows the banner at the end of the body until the shopper chooses; returns it. */
export function mountCookieBanner(prefix: string): HTMLElement {
  const banner = element('section', 'cookie-banner');
  banner.setAttribute('aria-labelledby', 'cookie-banner-title');
  const inner = element('div', 'container cookie-banner__inner');
  const title = element('h2', 'cookie-banner__title', TITLE);
  title.id = 'cookie-banner-title';
  const text = element('p', 'cookie-banner__text', TEXT);
  const settings = element('a', '', 'Cookie settings');
  settings.href = `${prefix}/cookies`;
  text.append(settings, '.');
  const actions = element('div', 'cookie-banner__actions');
  // Refusing is as easy and as prominent as accepting: two buttons of the same style.
  const choices: [string, boolean][] = [
    ['Accept all', true],
    ['Necessary only', false],
  ];
  for (const [label, analytics] of choices) {
    const button = element('button', 'btn btn--primary', label);
    button.type = 'button';
    button.addEventListener('click', () => {
      saveConsent({ analytics });
      banner.remove();
    });
    actions.append(button);
  }
  const copy = element('div', '');
  copy.append(title, text);
  inner.append(copy, actions);
  banner.append(inner);
  document.body.append(banner);
  return banner;
}
