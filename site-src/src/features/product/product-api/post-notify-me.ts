// POST /notify-me: a back-in-stock request for a sold-out choice; `fit` is sent exactly when the
// product has lengths.
import { api } from '../../../lib/api';

export interface NotifyMeRequest {
  email: string;
  product_id: number;
  variant_id: number;
  size: string;
  fit?: string;
}

export async function postNotifyMe(request: NotifyMeRequest): Promise<void> {
  await api('POST', '/notify-me', request);
}
