// The countdown (hydrated by the Countdown island): the countdown-timer slot (and block). Shown
// only between startDate and endDate, ticking each second as dd : hh : mm : ss, zeros at the end,
// hidden outside the window. Server markup: templates/islands/countdown.html — an empty hidden
// container, so the static page never shows a stale count; the first client render is the same, the
// count appears after mount.
import { useEffect, useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { COUNTDOWN_TICK_MS } from './constants';
import { nullableString } from './schemas';

export const schema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  text: nullableString,
  link: nullableString,
  backgroundColour: nullableString,
  textColour: nullableString,
});

export type CountdownProps = z.infer<typeof schema>;

/** Days, hours, minutes and seconds left, each padded to two digits; zeros once `msLeft` ≤ 0. */
export function countdownParts(msLeft: number): [string, string, string, string] {
  const total = Math.max(0, Math.floor(msLeft / 1000));
  const pad = (n: number): string => String(n).padStart(2, '0');
  return [pad(Math.floor(total / 86400)), pad(Math.floor(total / 3600) % 24), pad(Math.floor(total / 60) % 60), pad(total % 60)];
}

/** Milliseconds left if `now` is inside [start, end], else null (hidden). Bad dates hide it too. */
export function msLeftInWindow(now: number, startDate: string, endDate: string): number | null {
  const start = Date.parse(startDate);
  const end = Date.parse(endDate);
  if (Number.isNaN(start) || Number.isNaN(end) || now < start || now > end) return null;
  return end - now;
}

const UNITS = ['days', 'hours', 'minutes', 'seconds'] as const;

export default function Countdown(props: CountdownProps): ReactElement {
  // null until mounted: the first render equals the static, empty, hidden container.
  const [now, setNow] = useState<number | null>(null);

  useEffect(() => {
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);

  const left = now === null ? null : msLeftInWindow(now, props.startDate, props.endDate);
  if (left === null) return <div className="countdown" hidden />;

  const parts = countdownParts(left);
  const style = {
    ...(props.backgroundColour ? { backgroundColor: props.backgroundColour } : {}),
    ...(props.textColour ? { color: props.textColour } : {}),
  };
  const label = UNITS.map((unit, i) => `${Number(parts[i])} ${unit}`).join(', ');
  const clock = (
    <span className="countdown__clock" role="timer" aria-label={label}>
      {parts.map((part, i) => (
        <span className="countdown__part" key={UNITS[i]}>
          {i > 0 && <span className="countdown__sep" aria-hidden="true">:</span>}
          <span className="countdown__unit" aria-hidden="true">{part}</span>
        </span>
      ))}
    </span>
  );
  const body = (
    <>
      {props.text && <span className="countdown__text">{props.text}</span>}
      {clock}
    </>
  );
  return (
    <div className="countdown countdown--live" style={style}>
      {props.link ? (
        <a className="countdown__link" href={props.link}>
          {body}
        </a>
      ) : (
        body
      )}
    </div>
  );
}
