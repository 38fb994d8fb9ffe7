// The product card (picture, hover picture, badge, name, prices, swatches, "+N"), rendering exactly the markup of
// templates/macros/card.html for the same card JSON (docs/templates.md `card`), so listing pages
// hydrate without a mismatch. Hovering a colour swatch shows that colour's image; the secondary
// image on hover and the visible-swatch limits per breakpoint are CSS (catalog.css).
import { useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { CARD_HOVER_WIDTH, CARD_IMAGE_SIZES, CARD_IMAGE_WIDTHS, SWATCH_IMAGE_WIDTH, sized, srcset } from './media';

const image = z.object({ src: z.string(), alt: z.string() });

export const cardSchema = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  image: image,
  secondary_image: z.nullable(image),
  badge: z.nullable(z.object({ name: z.string(), text_colour: z.string(), background_colour: z.string() })),
  price_hidden: z.boolean(),
  price: z.string(),
  sale_price: z.nullable(z.string()),
  percent_off: z.nullable(z.string()),
  swatches: z.array(z.object({ label: z.string(), swatch: z.nullable(z.string()), url: z.string(), image: z.string() })),
  colour_count: z.number(),
});

export type Card = z.infer<typeof cardSchema>;
export type Swatch = Card['swatches'][number];

/**
 * The card as a colour filter shows it: the first colourway whose colour is chosen becomes the card's
 * picture and link, and its swatch comes first, marked chosen (`selected`), so it shows at every
 * breakpoint's swatch limit. The hover picture belongs to the default colourway, so it goes when
 * another colourway is shown. Without a filter, or with the default colourway chosen, the card is as
 * rendered statically.
 */
export function cardForColours(card: Card, colours: readonly string[]): { card: Card; selected: Swatch | null } {
  const chosen = colours.length === 0 ? undefined : card.swatches.find((s) => colours.includes(s.label));
  if (chosen === undefined) return { card, selected: null };
  const swatches = [chosen, ...card.swatches.filter((s) => s !== chosen)];
  if (chosen.url === '' || chosen.url === card.url) return { card: { ...card, swatches }, selected: chosen };
  return {
    card: {
      ...card,
      url: chosen.url,
      image: { src: chosen.image, alt: `${card.name}, ${chosen.label}` },
      secondary_image: null,
      swatches,
    },
    selected: chosen,
  };
}

/** The "+N" counters: one per breakpoint limit (3 xs, 4 sm, 6 md/lg, 8 xl, 9 2xl), CSS shows one. */
export const SWATCH_LIMITS = [3, 4, 6, 8, 9] as const;

export function Price(props: {
  amount: string;
  sale: string | null;
  percentOff: string | null;
  hidden: boolean;
  size: string;
}): ReactElement | null {
  if (props.hidden || props.amount === '') return null;
  if (props.sale === null || props.sale === '') {
    return (
      <p className={`price price--${props.size}`}>
        <span className="price__now">{props.amount}</span>
      </p>
    );
  }
  return (
    <p className={`price price--${props.size} price--on-sale`}>
      <span className="visually-hidden">Was </span>
      <s className="price__was">{props.amount}</s> <span className="visually-hidden">Now </span>
      <span className="price__now price__now--sale">{props.sale}</span>
      {props.percentOff ? (
        <>
          {' '}
          <span className="price__off">{props.percentOff}</span>
        </>
      ) : null}
    </p>
  );
}

export function Badge(props: { badge: NonNullable<Card['badge']>; className: string }): ReactElement {
  const { badge } = props;
  const sale = badge.name.toLowerCase() === 'sale' ? ' badge--sale' : '';
  return (
    <span
      className={`badge${sale} ${props.className}`}
      style={{ color: badge.text_colour, backgroundColor: badge.background_colour }}
    >
      {badge.name}
    </span>
  );
}

/** `eager`: load the picture at once (the first row); `priority`: fetch it first (the page's largest picture). */
export function ProductCard(props: { card: Card; eager?: boolean; priority?: boolean; colours?: readonly string[] }): ReactElement {
  const { card, selected } = cardForColours(props.card, props.colours ?? []);
  const eager = props.eager ?? false;
  // The image a hovered swatch shows instead of the card's own (null: the card's own).
  const [swatchImage, setSwatchImage] = useState<string | null>(null);
  const colourCount = card.colour_count;
  const shown = swatchImage ?? card.image.src;
  return (
    <article className="card" data-product-id={card.id}>
      <div className="card__media">
        <a className="card__image-link" href={card.url} tabIndex={-1} aria-hidden="true">
          {card.image.src ? (
            <img
              className="card__image"
              src={shown}
              srcSet={srcset(shown, CARD_IMAGE_WIDTHS)}
              sizes={CARD_IMAGE_SIZES}
              alt={card.image.alt || card.name}
              width="600"
              height="800"
              loading={eager ? undefined : 'lazy'}
              fetchPriority={props.priority ? 'high' : undefined}
              decoding="async"
            />
          ) : null}
          {card.secondary_image?.src ? (
            <img
              className="card__image card__image--secondary"
              src={sized(card.secondary_image.src, CARD_HOVER_WIDTH)}
              alt={card.secondary_image.alt || card.name}
              width="600"
              height="800"
              loading="lazy"
              decoding="async"
            />
          ) : null}
        </a>
        {card.badge?.name ? <Badge badge={card.badge} className="card__badge" /> : null}
      </div>
      <div className="card__body">
        <h3 className="card__name">
          <a href={card.url}>{card.name}</a>
        </h3>
        <Price
          amount={card.price}
          sale={card.sale_price}
          percentOff={card.percent_off}
          hidden={card.price_hidden}
          size="sm"
        />
        {card.swatches.length > 1 || colourCount > 1 ? (
          <ul className="card-swatches" aria-label={`${colourCount} colours`}>
            {card.swatches.map((s) => (
              <li className="card-swatch" key={s.url + s.label}>
                <a
                  className="card-swatch__link"
                  href={s.url || card.url}
                  title={s.label}
                  aria-current={s === selected ? 'true' : undefined}
                  onMouseEnter={() => setSwatchImage(s.image)}
                  onMouseLeave={() => setSwatchImage(null)}
                  onFocus={() => setSwatchImage(s.image)}
                  onBlur={() => setSwatchImage(null)}
                >
                  <span
                    className="card-swatch__chip"
                    style={s.swatch === null ? undefined : { backgroundColor: s.swatch }}
                  >
                    {s.swatch === null && s.image ? (
                      <img
                        className="card-swatch__image"
                        src={sized(s.image, SWATCH_IMAGE_WIDTH)}
                        alt=""
                        width="14"
                        height="14"
                        loading="lazy"
                        decoding="async"
                      />
                    ) : null}
                  </span>
                  <span className="visually-hidden">{s.label}</span>
                </a>
              </li>
            ))}
            {SWATCH_LIMITS.filter((limit) => colourCount > limit).map((limit) => (
              <li className={`card-swatches__more card-swatches__more--${limit}`} aria-hidden="true" key={limit}>
                {`+${colourCount - limit}`}
              </li>
            ))}
          </ul>
        ) : null}
        <span className="rating rating--empty" aria-hidden="true" />
      </div>
    </article>
  );
}
