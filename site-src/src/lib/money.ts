// Money as every screen shows it: the API's decimal major units in the currency's own format.
/** A price in the cart's currency: the API answers decimal major units. */
export function formatMoney(amount: number, currency: string): string {
  const locale = currency === 'USD' ? 'en-US' : currency === 'EUR' ? 'en-IE' : 'en-GB';
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
}
