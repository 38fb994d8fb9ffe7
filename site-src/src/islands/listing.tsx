// Listing island: hydrates the listing feature's toolbar, filters, grid and pagination
// (features/listing/listing.tsx) over templates/islands/listing.html.
export { default, schema, type ListingProps } from '../features/listing/listing';
