// Inline SVG icons of the block islands. Their markup is repeated verbatim in
// templates/islands/_block_icons.html: change both together (the parity tests compare them).
import type { ReactElement } from 'react';
import { Icon } from '../../lib/icons';

export const ICON_PATHS = {
  chevron: 'M9 6l6 6-6 6',
  'chevron-left': 'M15 6l-6 6 6 6',
  'chevron-down': 'M6 9l6 6 6-6',
  close: 'M6 6l12 12M18 6L6 18',
  menu: 'M3 6h18M3 12h18M3 18h18',
  pause: 'M8 5v14M16 5v14',
  play: 'M7 5l12 7-12 7z',
} as const;

export type IconName = keyof typeof ICON_PATHS;

export function BlockIcon({ name, size = 20 }: { name: IconName; size?: number }): ReactElement {
  return <Icon name={name} d={ICON_PATHS[name]} size={size} />;
}
