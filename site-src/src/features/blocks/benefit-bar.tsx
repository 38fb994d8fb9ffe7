// The benefit bar (hydrated by the BenefitBar island): the ticker of the benefit-bar slot. One item
// shows at a time; it advances every 3.5 s, loops back to the first after a 750 ms reset, pauses
// while hovered and resumes on leave or when the tab becomes visible. With one item or none it does
// not rotate. Server markup: templates/islands/benefit-bar.html (the first item showing).
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { nullableString } from './schemas';

export const schema = z.object({
  items: z.array(z.object({ text: z.string(), link: nullableString, openInNewTab: z.boolean() })),
  backgroundColour: nullableString,
  textColour: nullableString,
  tickMs: z.number(),
  resetMs: z.number(),
});

export type BenefitBarProps = z.infer<typeof schema>;
type Item = BenefitBarProps['items'][number];

/** One item; links of the items not showing are taken out of the tab order (they are aria-hidden). */
function ItemBody({ item, showing }: { item: Item; showing: boolean }): ReactElement {
  if (!item.link) return <span>{item.text}</span>;
  const tabIndex = showing ? undefined : -1;
  return item.openInNewTab ? (
    <a href={item.link} target="_blank" rel="noopener" tabIndex={tabIndex}>
      {item.text}
    </a>
  ) : (
    <a href={item.link} tabIndex={tabIndex}>
      {item.text}
    </a>
  );
}

export default function BenefitBar(props: BenefitBarProps): ReactElement {
  const { items, tickMs, resetMs } = props;
  const rotates = items.length > 1;
  // `index` may reach items.length: the copy of the first item at the end, shown before the reset.
  const [index, setIndex] = useState(0);
  const [instant, setInstant] = useState(false);
  const [paused, setPaused] = useState(false);
  const resetTimer = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (!rotates || paused) return undefined;
    const timer = window.setInterval(() => {
      setInstant(false);
      setIndex((i) => Math.min(i + 1, items.length));
    }, tickMs);
    return () => window.clearInterval(timer);
  }, [rotates, paused, tickMs, items.length]);

  // On the copy of the first item, jump back to the real first one without animation.
  useEffect(() => {
    if (index < items.length || !rotates) return undefined;
    resetTimer.current = window.setTimeout(() => {
      setInstant(true);
      setIndex(0);
    }, resetMs);
    return () => window.clearTimeout(resetTimer.current);
  }, [index, items.length, resetMs, rotates]);

  const resume = useCallback(() => setPaused(false), []);
  useEffect(() => {
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') resume();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [resume]);

  const style = {
    ...(props.backgroundColour ? { backgroundColor: props.backgroundColour } : {}),
    ...(props.textColour ? { color: props.textColour } : {}),
  };
  const shown = index % Math.max(items.length, 1);
  return (
    <div
      className={`benefit-bar benefit-ticker${paused ? ' benefit-ticker--paused' : ''}`}
      style={style}
      onMouseEnter={() => rotates && setPaused(true)}
      onMouseLeave={resume}
      data-ticker-index={shown}
    >
      <ul
        className={`benefit-ticker__track${instant ? ' benefit-ticker__track--instant' : ''}`}
        style={{ '--ticker-index': index } as Record<string, number>}
      >
        {items.map((item, i) => (
          <li className="benefit-ticker__item" key={i} aria-hidden={i === shown ? undefined : 'true'}>
            <ItemBody item={item} showing={i === shown} />
          </li>
        ))}
        {rotates && items[0] !== undefined && (
          <li className="benefit-ticker__item" aria-hidden="true">
            <span>{items[0].text}</span>
          </li>
        )}
      </ul>
    </div>
  );
}
