// What the shopper typed but has not sent yet, kept per market in sessionStorage
// (`checkout-draft-{market}`) so back, forward and reload keep it; sent data comes back from the API.
// Card and gift card details are never part of it.
import type { AddressFields } from '../../lib/address';
import { marketOf } from '../../lib/api';

export interface Draft {
  email?: string;
  /** The delivery address being typed, the saved address chosen ('new' for the form) and Save. */
  delivery?: AddressFields;
  deliveryChoice?: string;
  saveAddress?: boolean;
  billingSame?: boolean;
  billing?: AddressFields;
  /** The payment method type chosen (never its details). */
  method?: string;
}

const key = (): string => `checkout-draft-${marketOf()}`;

export function readDraft(): Draft {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(key()) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Draft) : {};
  } catch {
    return {};
  }
}

/** Merges `patch` into the draft; a key set to undefined is dropped (it was sent). */
export function saveDraft(patch: Draft): void {
  try {
    window.sessionStorage.setItem(key(), JSON.stringify({ ...readDraft(), ...patch }));
  } catch {
    // Storage full or refused (private mode): the form still works, it just is not kept.
  }
}

export function clearDraft(): void {
  try {
    window.sessionStorage.removeItem(key());
  } catch {
    // Nothing kept, nothing to clear.
  }
}
