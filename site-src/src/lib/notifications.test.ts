// Notifications: at most 3, the oldest dropped, each gone after 3000 ms unless persistent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismiss, notify } from './notifications';
import { store } from './store';

const messages = (): string[] => store.getState().notifications.map((n) => n.message);

describe('notifications', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    store.getState().reset();
  });
  afterEach(() => vi.useRealTimers());

  it('keeps at most 3, dropping the oldest', () => {
    for (const m of ['one', 'two', 'three', 'four']) notify(m);
    expect(messages()).toEqual(['two', 'three', 'four']);
  });

  it('removes each after 3000 ms, but not a persistent one', () => {
    notify('brief');
    notify('stays', { persist: true });
    vi.advanceTimersByTime(2999);
    expect(messages()).toEqual(['brief', 'stays']);
    vi.advanceTimersByTime(1);
    expect(messages()).toEqual(['stays']);
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(['stays']);
  });

  it('dismisses on demand', () => {
    const id = notify('bye', { persist: true });
    dismiss(id);
    expect(messages()).toEqual([]);
  });
});
