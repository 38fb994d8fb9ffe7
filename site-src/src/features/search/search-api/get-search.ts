// GET /search: the header overlay's instant search, products and popular searches for a term.
import { api } from '../../../lib/api';

export interface SearchProduct {
  id: number;
  name: string;
  url: string;
  image_url: string | null;
  colour: string | null;
}

export interface SearchAnswer {
  products: SearchProduct[];
  suggestions: string[];
}

export function getSearch(query: string): Promise<SearchAnswer> {
  return api<SearchAnswer>('GET', `/search?query=${encodeURIComponent(query)}`);
}
