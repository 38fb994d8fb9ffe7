// POST /auth/logout: ends the session and clears its cookies.
import { api } from '../../../lib/api';

export async function postLogout(): Promise<void> {
  await api('POST', '/auth/logout', {});
}
