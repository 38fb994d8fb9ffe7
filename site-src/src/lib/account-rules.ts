// The account forms' field rules (registration, password reset, profile, the order
// confirmation's account offer): password strength, name length, required fields.
/** Password: at least 7 characters including a letter and a number. */
export function passwordError(value: string): string | null {
  if (value.length < 7 || !/[a-z]/i.test(value) || !/[0-9]/.test(value)) {
    return 'Password must be at least 7 characters and include a letter and a number';
  }
  return null;
}

/** First and last name at least 2 characters. */
export function nameError(value: string, label: string): string | null {
  return value.trim().length >= 2 ? null : `${label} must be at least 2 characters`;
}

export function requiredError(value: string, message: string): string | null {
  return value.trim() === '' ? message : null;
}
