// The preview bar (hydrated by the PreviewBar island): the content-preview bar. Preview mode is on
// while the preview cookie (set by GET /api/preview from ampl_domain / ampl_timestamp) is present;
// the bar says so, with the scheduled date when one is set, and Exit Preview deletes the cookie and
// reloads. The server cannot know the cookie, so the first render is the hidden bar
// (templates/islands/preview-bar.html).
import { useEffect, useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { PREVIEW_COOKIE } from '../../lib/cookies';

export const schema = z.object({});

export { PREVIEW_COOKIE };

export interface PreviewState {
  domain: string;
  /** Epoch milliseconds of the scheduled preview, or null for "now". */
  timestamp: number | null;
}

/** The preview cookie's `{domain}~{timestamp}` value, or null when preview mode is off. */
export function readPreview(cookies: string): PreviewState | null {
  const pair = cookies
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${PREVIEW_COOKIE}=`));
  if (pair === undefined) return null;
  const [domain, timestamp] = pair.slice(PREVIEW_COOKIE.length + 1).split('~');
  if (!domain) return null;
  const ms = timestamp ? Number(timestamp) : NaN;
  return { domain, timestamp: Number.isFinite(ms) && ms > 0 ? ms : null };
}

/** "1 Jan 2027, 09:30" in the editor's time zone. */
export function formatPreviewDate(ms: number): string {
  return new Date(ms).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

function exitPreview(): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${PREVIEW_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax${secure}`;
  window.location.reload();
}

export default function PreviewBar(): ReactElement {
  const [preview, setPreview] = useState<PreviewState | null>(null);
  useEffect(() => {
    setPreview(readPreview(document.cookie));
  }, []);
  if (preview === null) return <div className="preview-bar" hidden />;
  return (
    <div className="preview-bar" role="region" aria-label="Content preview">
      <p className="preview-bar__text">
        <span>You&apos;re previewing your website</span>
        {preview.timestamp !== null && (
          <span className="preview-bar__date"> as it will be on {formatPreviewDate(preview.timestamp)}</span>
        )}
      </p>
      <button type="button" className="preview-bar__exit" onClick={exitPreview}>
        Exit Preview
      </button>
    </div>
  );
}
