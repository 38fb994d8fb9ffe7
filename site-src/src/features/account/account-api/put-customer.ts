// PUT /customer: saves the profile; the answer is the customer as saved.
import { api } from '../../../lib/api';
import type { Customer } from '../../../lib/store';

export function putCustomer(body: Record<string, unknown>): Promise<Customer | null> {
  return api<Customer | null>('PUT', '/customer', body);
}
