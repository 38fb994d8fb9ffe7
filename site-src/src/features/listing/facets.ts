// The facet counts of a listing (colours with their swatch, sizes), as props and as the API sends them.
import * as z from 'zod/mini';

export const facetsSchema = z.object({
  colours: z.array(z.object({ label: z.string(), swatch: z.nullable(z.string()), count: z.number() })),
  sizes: z.array(z.object({ label: z.string(), count: z.number() })),
});

export type Facets = z.infer<typeof facetsSchema>;
