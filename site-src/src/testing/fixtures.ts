// Island props shared by the unit tests and the template/component parity test.
import type { HeaderActionsProps } from '../features/shell/header-actions';
import type { ProductOptionsProps } from '../features/product/product-options';

export const headerActionsFixtures: Record<string, HeaderActionsProps> = {
  uk: { prefix: '' },
  us: { prefix: '/us' },
  eu: { prefix: '/eu' },
};

const dress: ProductOptionsProps = {
  productId: 1201,
  name: 'Wrap Dress',
  styleCode: 'WD1201',
  isGiftCard: false,
  colourLabel: 'Colour',
  colours: [
    { label: 'Navy', url: '/p/wrap-dress-navy', valueId: 7, swatch: '#1f2a44', selected: true },
    { label: 'Rose & Ivory', url: '/p/wrap-dress-rose', valueId: 8, swatch: '#e8b4b8', selected: false },
    { label: 'Print', url: '/p/wrap-dress-print', valueId: 9, swatch: null, selected: false },
  ],
  sizes: [
    { id: 10, label: '8' },
    { id: 11, label: '10' },
    { id: 12, label: '12' },
  ],
  lengths: [
    { id: 20, label: 'Petite' },
    { id: 21, label: 'Regular' },
  ],
  variants: [
    { id: 5001, colour: 7, size: 10, length: 20, purchasable: true },
    { id: 5002, colour: 7, size: 10, length: 21, purchasable: true },
    { id: 5003, colour: 7, size: 11, length: 20, purchasable: false },
    { id: 5004, colour: 7, size: 11, length: 21, purchasable: true },
    { id: 5005, colour: 7, size: 12, length: 20, purchasable: true },
    { id: 5006, colour: 7, size: 12, length: 21, purchasable: true },
    { id: 5101, colour: 8, size: 10, length: 20, purchasable: true },
    { id: 5201, colour: 9, size: 10, length: 20, purchasable: true },
  ],
  colourValueId: 7,
  sizeGuideUrl: '/size-guide',
};

export const productOptionsFixtures: Record<string, ProductOptionsProps> = {
  dress,
  oneSize: {
    productId: 1300,
    name: 'Silk Scarf "Marina" <limited>',
    styleCode: 'SC1300',
    isGiftCard: false,
    colourLabel: 'Colour',
    colours: [{ label: "Sea'green", url: '/us/p/silk-scarf?ref=a&b=c', valueId: 3, swatch: '#2e8b57', selected: true }],
    sizes: [{ id: 30, label: 'One Size' }],
    lengths: [],
    variants: [{ id: 6001, colour: 3, size: 30, length: null, purchasable: true }],
    colourValueId: 3,
    sizeGuideUrl: '/us/size-guide',
  },
  giftCard: {
    productId: 1400,
    name: 'Gift Card',
    styleCode: 'GC1400',
    isGiftCard: true,
    colourLabel: 'Design',
    colours: [
      { label: 'Birthday', url: '/eu/p/gift-card-birthday', valueId: null, swatch: null, selected: false },
      { label: 'Classic', url: '/eu/p/gift-card-classic', valueId: null, swatch: null, selected: false },
    ],
    sizes: [
      { id: 40, label: '€25' },
      { id: 41, label: '€50' },
    ],
    lengths: [],
    variants: [
      { id: 7001, colour: null, size: 40, length: null, purchasable: true },
      { id: 7002, colour: null, size: 41, length: null, purchasable: true },
    ],
    colourValueId: null,
    sizeGuideUrl: '',
  },
  bare: {
    productId: 1500,
    name: 'Tote',
    styleCode: 'TB1500',
    isGiftCard: false,
    colourLabel: 'Colour',
    colours: [],
    sizes: [],
    lengths: [],
    variants: [{ id: 8001, colour: null, size: null, length: null, purchasable: true }],
    colourValueId: null,
    sizeGuideUrl: '/size-guide',
  },
};

/** Wraps island inner markup as the generator does, for tests that start from a page. */
export function islandHtml(name: string, id: string, inner: string, props: unknown, hydrate?: string): string {
  const when = hydrate === undefined ? '' : ` data-island-hydrate="${hydrate}"`;
  const json = JSON.stringify(props)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
  return `<div data-island="${name}" data-island-id="${id}"${when}>${inner}</div><script type="application/json" data-island-props="${id}">${json}</script>`;
}

import type { ProductActionsProps } from '../features/product/product-actions';

export const productActionsFixtures: Record<string, ProductActionsProps> = {
  dress: {
    productId: 1201,
    name: 'Wrap Dress',
    sku: 'WD1201',
    isGiftCard: false,
    price: '£65.00',
    salePrice: '£45.00',
    image: '/media/wrap-dress.jpg',
    colour: 'Navy',
    modifiers: [],
  },
  giftCard: {
    productId: 171,
    name: 'E-Gift Card & "Thanks"',
    sku: '100000',
    isGiftCard: true,
    price: '£25.00',
    salePrice: null,
    image: null,
    colour: 'Birthday Balloons',
    modifiers: [
      { id: 701, display_name: 'Recipient email', kind: 'text', required: true },
      { id: 702, display_name: 'Your email', kind: 'text', required: true },
      { id: 703, display_name: 'Message', kind: 'text', required: false },
    ],
  },
};
