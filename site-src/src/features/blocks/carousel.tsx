// The carousel block (hydrated by the Carousel island): the scrollable card group. Cards scroll one
// at a time and loop (next after the last card returns to the first, previous before the first goes
// to the last); the arrows are hidden on large screens when there are fewer than 5 cards. Native
// horizontal scrolling with snap points works before hydration. Server markup:
// templates/islands/carousel.html.
import { useRef, useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { BlockIcon } from './icons';
import { cta, image, nullableString } from './schemas';

export const schema = z.object({
  title: nullableString,
  titleColour: nullableString,
  backgroundColour: nullableString,
  loop: z.boolean(),
  loopedSlides: z.number(),
  slidesPerScroll: z.number(),
  arrowsMinCards: z.number(),
  cards: z.array(
    z.object({
      heading: z.string(),
      subheading: nullableString,
      textColour: nullableString,
      backgroundColour: nullableString,
      link: nullableString,
      clickable: z.boolean(),
      image: z.nullable(image),
      ctas: z.array(cta),
    }),
  ),
});

export type CarouselProps = z.infer<typeof schema>;

/** The card index after moving `step` cards from `index` among `count`, looping or clamping. */
export function stepIndex(index: number, step: number, count: number, loop: boolean): number {
  if (count === 0) return 0;
  const next = index + step;
  if (loop) return ((next % count) + count) % count;
  return Math.min(Math.max(next, 0), count - 1);
}

export default function Carousel(props: CarouselProps): ReactElement {
  const { cards } = props;
  const [index, setIndex] = useState(0);
  const track = useRef<HTMLUListElement | null>(null);

  const go = (step: number): void => {
    const next = stepIndex(index, step * props.slidesPerScroll, cards.length, props.loop);
    setIndex(next);
    const list = track.current;
    const slide = list?.children[next] as HTMLElement | undefined;
    if (list && slide && typeof list.scrollTo === 'function') {
      list.scrollTo({ left: slide.offsetLeft - list.offsetLeft, behavior: 'smooth' });
    }
  };

  const few = cards.length < props.arrowsMinCards;
  const Tag = props.title ? 'section' : 'div';
  return (
    <Tag
      className={`carousel${few ? ' carousel--few' : ''}`}
      style={props.backgroundColour ? { backgroundColor: props.backgroundColour } : undefined}
      data-index={index}
    >
      <div className="container carousel__inner">
        {props.title && (
          <h2 className="carousel__title" style={props.titleColour ? { color: props.titleColour } : undefined}>
            {props.title}
          </h2>
        )}
        <ul className="carousel__track" ref={track}>
          {cards.map((card, i) => (
            <li className="carousel__slide" key={i}>
              <div
                className="card-tile"
                style={{
                  ...(card.backgroundColour ? { backgroundColor: card.backgroundColour } : {}),
                  ...(card.textColour ? { color: card.textColour } : {}),
                }}
              >
                <div className="card-tile__media">
                  {card.image && (
                    <img
                      className="card-tile__image"
                      src={card.image.url}
                      srcSet={card.image.srcset ?? undefined}
                      sizes={card.image.srcset ? '(min-width: 768px) 25vw, 70vw' : undefined}
                      alt={card.image.alt}
                      width="600"
                      height="800"
                      loading="lazy"
                      decoding="async"
                    />
                  )}
                </div>
                <div className="card-tile__text">
                  {card.subheading && <p className="card-tile__sub">{card.subheading}</p>}
                  <h3 className="card-tile__heading">
                    {card.clickable && card.link ? (
                      <a className="card-tile__link" href={card.link}>
                        {card.heading}
                      </a>
                    ) : (
                      card.heading
                    )}
                  </h3>
                  {card.ctas.length > 0 && (
                    <div className="cta-group">
                      {card.ctas.map((c, j) => (
                        <a
                          className={`btn btn--${c.style}`}
                          href={c.link}
                          data-button-type={c.buttonType}
                          data-cta-id={c.customId ?? undefined}
                          key={j}
                        >
                          {c.text}
                        </a>
                      ))}
                    </div>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
        {cards.length > 1 && (
          <div className="carousel__arrows">
            <button className="carousel__arrow carousel__arrow--prev" type="button" aria-label="Previous card" onClick={() => go(-1)}>
              <BlockIcon name="chevron-left" />
            </button>
            <button className="carousel__arrow carousel__arrow--next" type="button" aria-label="Next card" onClick={() => go(1)}>
              <BlockIcon name="chevron" />
            </button>
          </div>
        )}
      </div>
    </Tag>
  );
}
