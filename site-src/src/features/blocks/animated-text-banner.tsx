// The animated text banner (hydrated by the AnimatedTextBanner island): the text scrolls across in
// a loop at textSpeedDesktop seconds per loop from 768 px and textSpeedMobile below (CSS
// animation); a pause button stops it (moving content must be pausable) and so does
// prefers-reduced-motion. Optional link with ctaText, and dividers above and below. Server markup:
// templates/islands/animated-text-banner.html.
import { useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { BlockIcon } from './icons';
import { nullableString } from './schemas';

export const schema = z.object({
  text: z.string(),
  textFont: nullableString,
  textColour: nullableString,
  backgroundColour: nullableString,
  speedDesktop: z.number(),
  speedMobile: z.number(),
  link: nullableString,
  ctaText: nullableString,
  dividers: z.boolean(),
});

export type AnimatedTextBannerProps = z.infer<typeof schema>;

/** Copies of the text in the moving track: enough to fill a wide screen twice for a seamless loop. */
export const COPIES = 6;

export default function AnimatedTextBanner(props: AnimatedTextBannerProps): ReactElement {
  const [paused, setPaused] = useState(false);
  const style = {
    ...(props.backgroundColour ? { backgroundColor: props.backgroundColour } : {}),
    ...(props.textColour ? { color: props.textColour } : {}),
    ...(props.textFont ? { fontFamily: props.textFont } : {}),
    '--atb-speed-d': `${props.speedDesktop}s`,
    '--atb-speed-m': `${props.speedMobile}s`,
  } as Record<string, string>;
  return (
    <div className={`atb${props.dividers ? ' atb--dividers' : ''}${paused ? ' atb--paused' : ''}`} style={style}>
      <p className="visually-hidden">{props.text}</p>
      <div className="atb__viewport" aria-hidden="true">
        <div className="atb__track">
          {Array.from({ length: COPIES }, (_, i) => (
            <span className="atb__item" key={i}>
              {props.text}
            </span>
          ))}
        </div>
      </div>
      <div className="atb__controls">
        {props.link && props.ctaText && (
          <a className="atb__cta" href={props.link}>
            {props.ctaText}
          </a>
        )}
        <button className="atb__toggle" type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>
          <BlockIcon name={paused ? 'play' : 'pause'} size={16} />
          <span className="visually-hidden">Pause the moving text</span>
        </button>
      </div>
    </div>
  );
}
