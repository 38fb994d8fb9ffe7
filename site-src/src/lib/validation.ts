// The email rule, shared by every form (sign-in, registration, reset, gift cards,
// notify-me). Kept apart from the account forms' rules (lib/account-rules.ts): the product page
// carries this one on its JavaScript budget.
/** Email: text, at sign, domain, dot, at least 2 letters; case-insensitive. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

export function emailError(value: string): string | null {
  if (value.trim() === '') return 'Please enter your email address';
  return isEmail(value) ? null : 'Please enter a valid email address';
}
