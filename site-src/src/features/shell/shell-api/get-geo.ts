// GET /geo: the visitor's country from the CDN's geo header (null when unknown), for the locale
// overlay's first guess and the prompt to switch sites.
import { api } from '../../../lib/api';

export interface Geo {
  country: string | null;
}

export function getGeo(): Promise<Geo> {
  return api<Geo>('GET', '/geo');
}
