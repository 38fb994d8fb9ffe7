// GET /stock/products/{id}: every variant of a product with what is left to sell (null: not tracked).
import { api } from '../../../lib/api';

export interface ProductStock {
  variants: { variant_id: number; available_to_sell: number | null }[];
}

export function getProductStock(productId: number): Promise<ProductStock> {
  return api<ProductStock>('GET', `/stock/products/${productId}`);
}
