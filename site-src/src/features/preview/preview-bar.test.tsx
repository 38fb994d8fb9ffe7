// PreviewBar: hidden without the preview cookie; the spec's copy and the scheduled date with it;
// Exit Preview deletes the cookie and reloads.
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import PreviewBar, { PREVIEW_COOKIE, formatPreviewDate, readPreview } from './preview-bar';

function clearCookie(): void {
  document.cookie = `${PREVIEW_COOKIE}=; Max-Age=0; Path=/`;
}

describe('PreviewBar', () => {
  afterEach(clearCookie);

  it('reads the cookie', () => {
    expect(readPreview('a=1; amplience-preview=x.staging.bigcontent.io~1767225600000')).toEqual({
      domain: 'x.staging.bigcontent.io',
      timestamp: 1767225600000,
    });
    expect(readPreview('amplience-preview=x.staging.bigcontent.io~')).toEqual({
      domain: 'x.staging.bigcontent.io',
      timestamp: null,
    });
    expect(readPreview('other=1')).toBeNull();
  });

  it('stays hidden outside preview mode', () => {
    const { container } = render(<PreviewBar />);
    expect(container.querySelector('.preview-bar')?.hasAttribute('hidden')).toBe(true);
    expect(screen.queryByText("You're previewing your website")).toBeNull();
  });

  it('shows the copy and the date, and exits', () => {
    document.cookie = `${PREVIEW_COOKIE}=x.staging.bigcontent.io~1767225600000; Path=/`;
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, protocol: 'http:', reload });
    render(<PreviewBar />);
    expect(screen.getByText("You're previewing your website")).toBeTruthy();
    expect(screen.getByText(`as it will be on ${formatPreviewDate(1767225600000)}`, { exact: false })).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Exit Preview' }).click());
    expect(readPreview(document.cookie)).toBeNull();
    expect(reload).toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
