// The card and gift card checks made before tokenising: the sandbox's test cards pass them, typos
// and past expiry dates do not, and the request carries MM and a four-digit year.
import { describe, expect, it } from 'vitest';
import { cardErrors, cardRequest, giftCardErrors, luhn } from './card-details';

const today = new Date(2026, 4, 15);
const card = (number: string, expiry = '12/30') => ({ number, expiry, cvc: '123', holder_name: 'Ada Lovelace' });

describe('card details', () => {
  it("accepts the sandbox's test cards and refuses a mistyped number", () => {
    for (const number of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0000 0000 3220', '4000 0000 0000 0119']) {
      expect(cardErrors(card(number), today)).toEqual({});
    }
    expect(luhn('4242424242424241')).toBe(false);
    expect(cardErrors(card('4242 4242 4242 4241'), today).number).toBe('Please enter a valid card number');
  });

  it('needs an expiry of MM/YY not in the past, a 3–4 digit code and the name on the card', () => {
    expect(cardErrors(card('4242424242424242', '05/26'), today)).toEqual({});
    expect(cardErrors(card('4242424242424242', '04/26'), today).expiry).toBe('Please enter a valid expiry date as MM/YY');
    expect(cardErrors(card('4242424242424242', '13/30'), today).expiry).toBeDefined();
    expect(cardErrors({ number: '4242424242424242', expiry: '1/31', cvc: '12', holder_name: ' ' }, today)).toEqual({
      cvc: 'Please enter a valid security code',
      holder_name: 'Please enter the name on the card',
    });
  });

  it('sends digits only, a two-digit month and a four-digit year', () => {
    expect(cardRequest({ number: '4242 4242 4242 4242', expiry: '7/29', cvc: ' 123 ', holder_name: ' Ada ' })).toEqual({
      type: 'scheme', number: '4242424242424242', expiry_month: '07', expiry_year: '2029', cvc: '123', holder_name: 'Ada',
    });
  });

  it('needs a gift card number and PIN', () => {
    expect(giftCardErrors({ number: '6036 2800 0000 0001', pin: '1234' })).toEqual({});
    expect(giftCardErrors({ number: '', pin: '' })).toEqual({ number: 'Please enter a valid gift card number', pin: 'Please enter the gift card PIN' });
  });
});
