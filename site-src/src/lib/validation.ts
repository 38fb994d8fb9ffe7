// Field rules of spec §5, shared by every form (sign-in, registration, reset, gift cards, notify-me).
/** §5: text, at sign, domain, dot, at least 2 letters; case-insensitive. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

export function emailError(value: string): string | null {
  if (value.trim() === '') return 'Please enter your email address';
  return isEmail(value) ? null : 'Please enter a valid email address';
}

/** §5: at least 7 characters including a letter and a number. */
export function passwordError(value: string): string | null {
  if (value.length < 7 || !/[a-z]/i.test(value) || !/[0-9]/.test(value)) {
    return 'Password must be at least 7 characters and include a letter and a number';
  }
  return null;
}

/** §5: first and last name at least 2 characters. */
export function nameError(value: string, label: string): string | null {
  return value.trim().length >= 2 ? null : `${label} must be at least 2 characters`;
}

export function requiredError(value: string, message: string): string | null {
  return value.trim() === '' ? message : null;
}
