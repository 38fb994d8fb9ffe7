// Card and gift card details as typed, their checks, and the tokenisation request made from them.
// These values live only in the payment form's state: never stored, never sent to /api.
export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
  holder_name: string;
}

export interface GiftCardInput {
  number: string;
  pin: string;
}

export const NO_CARD: CardInput = { number: '', expiry: '', cvc: '', holder_name: '' };
export const NO_GIFT_CARD: GiftCardInput = { number: '', pin: '' };

export type TokenRequest =
  | { type: 'scheme'; number: string; expiry_month: string; expiry_year: string; cvc: string; holder_name: string }
  | { type: 'giftcard'; number: string; pin: string };

const digits = (value: string): string => value.replace(/[\s-]/g, '');

/** The Luhn check every card number passes (the provider refuses the rest anyway). */
export function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** `MM/YY` (or MM/YYYY) → month and four-digit year, or null. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(value.trim());
  if (match === null) return null;
  const month = Number(match[1]);
  const year = Number(match[2]);
  if (month < 1 || month > 12) return null;
  return { month, year: year < 100 ? 2000 + year : year };
}

/** Keyed like the tokenisation endpoint's `fields` (number, expiry, cvc, holder_name). */
export function cardErrors(card: CardInput, today: Date = new Date()): Record<string, string> {
  const errors: Record<string, string> = {};
  const number = digits(card.number);
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) errors.number = 'Please enter a valid card number';
  const expiry = parseExpiry(card.expiry);
  const now = today.getFullYear() * 12 + today.getMonth();
  if (expiry === null || expiry.year * 12 + expiry.month - 1 < now) errors.expiry = 'Please enter a valid expiry date as MM/YY';
  if (!/^\d{3,4}$/.test(card.cvc.trim())) errors.cvc = 'Please enter a valid security code';
  if (card.holder_name.trim() === '') errors.holder_name = 'Please enter the name on the card';
  return errors;
}

export function giftCardErrors(card: GiftCardInput): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!/^\d{8,30}$/.test(digits(card.number))) errors.number = 'Please enter a valid gift card number';
  if (card.pin.trim() === '') errors.pin = 'Please enter the gift card PIN';
  return errors;
}

export function cardRequest(card: CardInput): TokenRequest {
  const expiry = parseExpiry(card.expiry) ?? { month: 0, year: 0 };
  return {
    type: 'scheme',
    number: digits(card.number),
    expiry_month: String(expiry.month).padStart(2, '0'),
    expiry_year: String(expiry.year),
    cvc: card.cvc.trim(),
    holder_name: card.holder_name.trim(),
  };
}

export function giftCardRequest(card: GiftCardInput): TokenRequest {
  return { type: 'giftcard', number: digits(card.number), pin: card.pin.trim() };
}
