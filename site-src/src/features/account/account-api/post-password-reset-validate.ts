// POST /auth/password-reset/validate: whether the emailed link's token may still set a password.
import { api } from '../../../lib/api';

export async function postPasswordResetValidate(token: string): Promise<boolean> {
  return (await api<{ is_valid: boolean }>('POST', '/auth/password-reset/validate', { token })).is_valid;
}
