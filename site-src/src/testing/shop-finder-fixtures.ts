// ShopFinder island props as generator/src/shop_finder.rs writes them: three shops (one marker moved
// off its spot), a handful of places, and the same with no shops.
import type { ShopFinderProps } from '../features/shop-finder/shop-finder';

const week = (weekday: string, sunday: string) =>
  ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((day) => ({ day, hours: day === 'Sunday' ? sunday : weekday }));

export const shopFinderProps: ShopFinderProps = {
  unit: 'miles',
  shops: [
    {
      id: 'shop-dublin-grafton',
      name: 'Dublin Grafton Street',
      address: ['61 Grafton Street', 'Dublin', 'D02 X285', 'Ireland'],
      phone: null,
      phoneHref: null,
      services: ['Click & collect'],
      hours: week('09:30–18:00', '12:00–18:00'),
      directions: 'https://www.openstreetmap.org/directions?route=%3B53.3418%2C-6.2597',
      lat: 53.3418,
      lon: -6.2597,
    },
    {
      id: 'shop-leeds-briggate',
      name: 'Leeds Briggate',
      address: ['104 Briggate', 'Leeds', 'LS1 6BG', 'United Kingdom'],
      phone: '+44 113 496 0104',
      phoneHref: 'tel:+441134960104',
      services: ['Click & collect', 'In-store returns', 'Alterations'],
      hours: week('09:00–17:30', 'Closed'),
      directions: 'https://www.openstreetmap.org/directions?route=%3B53.7982%2C-1.5429',
      lat: 53.7982,
      lon: -1.5429,
    },
    {
      id: 'shop-london-covent-garden',
      name: 'London Covent Garden',
      address: ['28 King Street', 'London', 'WC2E 8JD', 'United Kingdom'],
      phone: '+44 20 7946 0028',
      phoneHref: 'tel:+442079460028',
      services: [],
      hours: week('10:00–20:00', '12:00–18:00'),
      directions: 'https://www.openstreetmap.org/directions?route=%3B51.5117%2C-0.124',
      lat: 51.5117,
      lon: -0.124,
    },
  ],
  map: {
    width: 400,
    height: 355,
    coast: 'M10 10L390 10L390 345L10 345Z',
    scale: { d: 'M12 343h64.2', x: 12, y: 337, label: '50 miles' },
    projection: { west: -7.3, north: 54.5, kx: 53.2, ky: 88.1 },
    points: [
      { x: 55.3, y: 101.4, mx: 55.3, my: 101.4 },
      { x: 306.3, y: 61.8, mx: 306.3, my: 61.8 },
      { x: 381.8, y: 263.2, mx: 380, my: 260.5 },
    ],
  },
  places: [
    { name: 'Leeds', kind: 'town', country: 'GB', lat: 53.7965, lon: -1.5478 },
    { name: 'London', kind: 'town', country: 'GB', lat: 51.5074, lon: -0.1278 },
    { name: 'Dublin', kind: 'town', country: 'IE', lat: 53.3498, lon: -6.2603 },
    { name: 'LS', kind: 'postcode_area', country: 'GB', lat: 53.8, lon: -1.55 },
    { name: 'LS1', kind: 'postcode_district', country: 'GB', lat: 53.7967, lon: -1.5475 },
    { name: 'SW', kind: 'postcode_area', country: 'GB', lat: 51.47, lon: -0.17 },
    { name: 'SW1A', kind: 'postcode_district', country: 'GB', lat: 51.5014, lon: -0.1419 },
  ],
  countries: ['GB', 'JE', 'GG', 'IM', 'IE'],
};

export const noShopsProps: ShopFinderProps = { ...shopFinderProps, shops: [], map: null };
