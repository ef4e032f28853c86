import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { App } from '../types/entities';
import { theme } from './theme';

/** Spec §2: apps 1-4 have built-in icons; any other app shows its iconUrl, or a placeholder when it has none. */
const BUILT_IN: Record<number, { background: string; glyph: ReactNode }> = {
  1: {
    background: '#0f766e',
    glyph: (
      <>
        <path d="M6 17a8 8 0 1 1 12 0" />
        <path d="M12 13l4-4" />
        <circle cx="12" cy="13" r="1.2" fill="currentColor" />
      </>
    ),
  },
  2: {
    background: '#7c3aed',
    glyph: (
      <>
        <path d="M5 6h14v9H10l-4 3v-3H5z" />
        <path d="M9 10.5h.01M12 10.5h.01M15 10.5h.01" />
      </>
    ),
  },
  3: {
    background: '#c2410c',
    glyph: (
      <>
        <path d="M12 11v9M9 20h6" />
        <circle cx="12" cy="9" r="2" />
        <path d="M7.5 4.5a6.5 6.5 0 0 0 0 9M16.5 4.5a6.5 6.5 0 0 1 0 9" />
      </>
    ),
  },
  4: {
    background: '#1d4ed8',
    glyph: (
      <>
        <rect x="5" y="5" width="5.5" height="5.5" rx="1" />
        <rect x="13.5" y="5" width="5.5" height="5.5" rx="1" />
        <rect x="5" y="13.5" width="5.5" height="5.5" rx="1" />
        <rect x="13.5" y="13.5" width="5.5" height="5.5" rx="1" />
      </>
    ),
  },
};

const PLACEHOLDER = (
  <>
    <rect x="5" y="5" width="14" height="14" rx="3" />
    <path d="M9 12h6M12 9v6" />
  </>
);

const Tile = styled.span<{ $size: number; $background: string }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  flex: none;
  width: ${(p) => p.$size}px;
  height: ${(p) => p.$size}px;
  border-radius: 12px;
  background: ${(p) => p.$background};
  color: #ffffff;
  overflow: hidden;
  img { width: 100%; height: 100%; object-fit: cover; }
`;

/** Decorative: the app's name is always written next to it. */
export function AppIcon({ app, size = 48 }: { app: Pick<App, 'id' | 'iconUrl'>; size?: number }) {
  const builtIn = BUILT_IN[app.id];
  if (!builtIn && app.iconUrl) {
    return (
      <Tile $size={size} $background={theme.color.background} aria-hidden="true">
        <img src={app.iconUrl} alt="" loading="lazy" width={size} height={size} />
      </Tile>
    );
  }
  return (
    <Tile $size={size} $background={builtIn?.background ?? theme.color.muted} aria-hidden="true">
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        width={size * 0.6}
        height={size * 0.6}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        data-icon={builtIn ? `app-${app.id}` : 'placeholder'}
      >
        {builtIn?.glyph ?? PLACEHOLDER}
      </svg>
    </Tile>
  );
}
