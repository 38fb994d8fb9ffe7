// Inline SVG icons used by islands. Their markup is repeated verbatim in templates/islands/*.html:
// change both together (the parity tests compare them).
import type { ReactElement } from 'react';

/** One stroked 24×24 icon drawn by a single path. */
export function Icon({ name, d, size = 24 }: { name: string; d: string; size?: number }): ReactElement {
  return (
    <svg
      className={`icon icon--${name}`}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={d} />
    </svg>
  );
}

export const SEARCH_PATH = 'M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14zM20 20l-4-4';
export const ACCOUNT_PATH = 'M12 12a4 4 0 1 0 0-8a4 4 0 1 0 0 8zM4 21a8 8 0 0 1 16 0';
export const HEART_PATH = 'M12 21s-7-4.5-9.5-9A5.5 5.5 0 0 1 12 6a5.5 5.5 0 0 1 9.5 6c-2.5 4.5-9.5 9-9.5 9z';
export const BAG_PATH = 'M5 8h14l-1 13H6L5 8zM9 8V6a3 3 0 0 1 6 0v2';

export const SearchIcon = (): ReactElement => <Icon name="search" d={SEARCH_PATH} />;
export const AccountIcon = (): ReactElement => <Icon name="account" d={ACCOUNT_PATH} />;
export const BagIcon = (): ReactElement => <Icon name="bag" d={BAG_PATH} />;
