// Every island module, found by file name: `src/islands/{kebab-name}.tsx`, default export the component.
// A new island needs only its file here and its partial in templates/islands/{kebab-name}.html.
import type { ComponentType } from 'react';

export interface PropsSchema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}

export interface IslandModule {
  // Props are checked by `schema` at run time before the component sees them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  default: ComponentType<any>;
  /** zod/mini schema of the props, checked before hydrating so contract drift shows as a console error. */
  schema?: PropsSchema;
}

export type IslandLoader = () => Promise<IslandModule>;

/** Lazy loaders keyed by file name (`./header-actions.tsx`); each becomes its own chunk. */
const files: Record<string, IslandLoader> = import.meta.glob<IslandModule>([
  './*.tsx',
  '!./*.test.tsx',
]);

/**
 * `HeaderActions` → `header-actions`: a hyphen before every capital but the first, exactly as the
 * generator's `kebab()` (generator/src/bundles.rs) does. Name islands without acronym runs.
 */
export function kebabName(name: string): string {
  return name.replace(/[A-Z]/g, (capital, index: number) => (index > 0 ? '-' : '') + capital.toLowerCase());
}

/** The loader for a PascalCase island name, or undefined if there is no such island. */
export function islandLoader(name: string): IslandLoader | undefined {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) return undefined;
  return files[`./${kebabName(name)}.tsx`];
}

/** Names of the island files, kebab-case (for tests). */
export function islandFileNames(): string[] {
  return Object.keys(files).map((key) => key.slice(2, -4));
}
