// The sticker (hydrated by the Sticker island): a floating promo sticker (a block, or a content
// page's desktop / mobile sticker) with an image or a template shape, up to three positioned text
// lines and a close button. It is scaled down, never up, to fit the viewport width − 56 px and
// height − 200 px, and hidden once closed. Server markup: templates/islands/sticker.html (scale 1;
// the fit is applied after mount).
import { useEffect, useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { STICKER_MARGIN_HEIGHT_PX, STICKER_MARGIN_WIDTH_PX } from './constants';
import { BlockIcon } from './icons';
import { nullableString } from './schemas';

export const schema = z.object({
  url: nullableString,
  width: z.number(),
  height: z.number(),
  marginRight: z.number(),
  marginBottom: z.number(),
  image: z.nullish(z.object({ url: z.string(), alt: z.string() })),
  template: nullableString,
  backgroundColour: nullableString,
  closeButton: z.nullish(z.object({ top: z.number(), right: z.number(), size: z.number(), colour: nullableString })),
  textLines: z.array(
    z.object({ text: z.string(), top: z.number(), left: z.number(), fontSize: z.number(), colour: nullableString }),
  ),
});

export type StickerProps = z.infer<typeof schema>;

/** Scale that fits width × height into the viewport minus the margins; never above 1. */
export function stickerScale(width: number, height: number, viewportWidth: number, viewportHeight: number): number {
  if (width <= 0 || height <= 0) return 1;
  const room = Math.min(
    Math.max(viewportWidth - STICKER_MARGIN_WIDTH_PX, 0) / width,
    Math.max(viewportHeight - STICKER_MARGIN_HEIGHT_PX, 0) / height,
  );
  return Math.min(1, room);
}

export default function Sticker(props: StickerProps): ReactElement | null {
  const [scale, setScale] = useState(1);
  const [closed, setClosed] = useState(false);

  useEffect(() => {
    const fit = (): void => setScale(stickerScale(props.width, props.height, window.innerWidth, window.innerHeight));
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [props.width, props.height]);

  if (closed) return null;
  const close = props.closeButton ?? { top: 0, right: 0, size: 32, colour: null };
  const lines = props.textLines.map((line, i) => (
    <span
      className="sticker__line"
      key={i}
      style={{ top: `${line.top}px`, left: `${line.left}px`, fontSize: `${line.fontSize}px`, ...(line.colour ? { color: line.colour } : {}) }}
    >
      {line.text}
    </span>
  ));
  const face = (
    <>
      {props.image ? (
        <img className="sticker__image" src={props.image.url} alt={props.image.alt} width={props.width} height={props.height} loading="lazy" decoding="async" />
      ) : null}
      {lines}
    </>
  );
  return (
    <div
      className={`sticker${props.template ? ` sticker--${props.template}` : ''}`}
      style={{
        width: `${props.width}px`,
        height: `${props.height}px`,
        right: `${props.marginRight}px`,
        bottom: `${props.marginBottom}px`,
        ...(props.backgroundColour ? { backgroundColor: props.backgroundColour } : {}),
        '--sticker-scale': scale,
      } as Record<string, string | number>}
    >
      {props.url ? (
        <a className="sticker__body" href={props.url}>
          {face}
        </a>
      ) : (
        <div className="sticker__body">{face}</div>
      )}
      <button
        className="sticker__close"
        type="button"
        aria-label="Close"
        onClick={() => setClosed(true)}
        style={{
          top: `${close.top}px`,
          right: `${close.right}px`,
          width: `${close.size}px`,
          height: `${close.size}px`,
          ...(close.colour ? { color: close.colour } : {}),
        }}
      >
        <BlockIcon name="close" size={16} />
      </button>
    </div>
  );
}
