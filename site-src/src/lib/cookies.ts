// Reads the UI-hint cookies the api sets (never session secrets: those are HttpOnly).
export function readCookie(name: string, cookieString: string = document.cookie): string | null {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/** Content preview mode is on while this cookie is set (GET /api/preview; features/preview/preview-bar.tsx). */
export const PREVIEW_COOKIE = 'amplience-preview';

/** The spec's `user-authenticated` cookie (1/0): a hint for the header only, not proof of a session. */
export function isSignedInHint(cookieString?: string): boolean {
  return readCookie('user-authenticated', cookieString) === '1';
}
