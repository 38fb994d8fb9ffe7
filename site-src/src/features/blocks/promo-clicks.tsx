// Promo click tracking (hydrated by the PromoClicks island): one per block page. Pushes the promo
// call-to-action click event (customId, button text, link) to window.dataLayer for every link
// carrying data-cta-id, wherever it is on the page (static blocks or islands). Renders only an
// empty hidden marker. Server markup: templates/islands/promo-clicks.html.
import { useEffect, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { promoClick } from '../../lib/data-layer';

export const schema = z.object({});

/** The promo event of a click, if it landed on a CTA with a custom id. */
export function promoOf(target: EventTarget | null): { customId: string; text: string; link: string } | null {
  if (!(target instanceof Element)) return null;
  const anchor = target.closest('a[data-cta-id]');
  if (anchor === null) return null;
  return {
    customId: anchor.getAttribute('data-cta-id') ?? '',
    text: (anchor.textContent ?? '').trim(),
    link: anchor.getAttribute('href') ?? '',
  };
}

export default function PromoClicks(): ReactElement {
  useEffect(() => {
    const onClick = (event: MouseEvent): void => {
      const promo = promoOf(event.target);
      if (promo !== null) promoClick(promo.customId, promo.text, promo.link);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);
  return <span className="promo-clicks" hidden />;
}
