// POST /auth/password-reset: asks for a reset link by email; the answer is the same whether or not
// the account exists (no enumeration).
import { api } from '../../../lib/api';

export async function postPasswordReset(email: string): Promise<void> {
  await api('POST', '/auth/password-reset', { email });
}
