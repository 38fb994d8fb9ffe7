// GET /customer: the signed-in customer (401 when signed out).
import { api } from '../../../lib/api';
import type { Customer } from '../../../lib/store';

export function getCustomer(): Promise<Customer> {
  return api<Customer>('GET', '/customer');
}
