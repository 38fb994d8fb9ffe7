// The form field rules: email, password and name length.
import { describe, expect, it } from 'vitest';
import { nameError, passwordError } from './account-rules';
import { emailError, isEmail } from './validation';

describe('validation', () => {
  it('email: text, at sign, domain, dot, two letters or more; any case', () => {
    for (const ok of ['a@b.co', 'Ann.Lee@Example.COM', ' x@y.io ']) expect(isEmail(ok)).toBe(true);
    for (const bad of ['', 'a@b', 'a@b.c', 'a b@c.de', '@b.com', 'a@.com1']) expect(isEmail(bad)).toBe(false);
    expect(emailError('')).toBe('Please enter your email address');
    expect(emailError('nope')).toBe('Please enter a valid email address');
  });
  it('password: at least 7 characters with a letter and a number', () => {
    expect(passwordError('abc1234')).toBeNull();
    for (const bad of ['abc123', 'abcdefgh', '12345678']) expect(passwordError(bad)).toMatch(/at least 7 characters/);
  });
  it('names: at least 2 characters', () => {
    expect(nameError('Jo', 'First name')).toBeNull();
    expect(nameError(' J ', 'First name')).toBe('First name must be at least 2 characters');
  });
});
