// POST /auth/password-reset/confirm: sets the new password with the emailed link's token (a used,
// expired or unknown link comes back as ApiError `invalid_token`).
import { api } from '../../../lib/api';

export async function postPasswordResetConfirm(token: string, password: string): Promise<void> {
  await api('POST', '/auth/password-reset/confirm', { token, password });
}
