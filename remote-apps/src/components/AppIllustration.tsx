import type { ReactNode } from 'react';
import styled from 'styled-components';

/** Spec §2: apps 1-3 have presentation images. Drawn here as SVG scenes, so nothing is downloaded. */
const SCENES: Record<number, { from: string; to: string; art: ReactNode }> = {
  // Control Max 360: a control dashboard with a gauge and a trend.
  1: {
    from: '#0f766e',
    to: '#134e4a',
    art: (
      <>
        <rect x="24" y="22" width="272" height="116" rx="12" fill="#ffffff" opacity="0.12" />
        <path
          d="M52 112a44 44 0 1 1 88 0"
          fill="none"
          stroke="#ffffff"
          strokeWidth="10"
          strokeLinecap="round"
          opacity="0.35"
        />
        <path d="M52 112a44 44 0 0 1 70-35" fill="none" stroke="#5eead4" strokeWidth="10" strokeLinecap="round" />
        <path d="M96 112l22-26" stroke="#ffffff" strokeWidth="4" strokeLinecap="round" />
        <circle cx="96" cy="112" r="6" fill="#ffffff" />
        <polyline
          points="168,112 188,92 206,100 226,66 246,78 270,48"
          fill="none"
          stroke="#99f6e4"
          strokeWidth="5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <rect x="168" y="118" width="102" height="6" rx="3" fill="#ffffff" opacity="0.35" />
        <circle cx="270" cy="48" r="7" fill="#fbbf24" />
      </>
    ),
  },
  // Beto Pro: a conversation with the assistant.
  2: {
    from: '#7c3aed',
    to: '#4c1d95',
    art: (
      <>
        <rect x="40" y="30" width="150" height="44" rx="14" fill="#ffffff" opacity="0.9" />
        <rect x="56" y="44" width="96" height="6" rx="3" fill="#7c3aed" opacity="0.6" />
        <rect x="56" y="56" width="70" height="6" rx="3" fill="#7c3aed" opacity="0.35" />
        <rect x="130" y="86" width="150" height="44" rx="14" fill="#c4b5fd" />
        <rect x="146" y="100" width="110" height="6" rx="3" fill="#4c1d95" opacity="0.6" />
        <rect x="146" y="112" width="80" height="6" rx="3" fill="#4c1d95" opacity="0.35" />
        <path d="M252 30l6 14 14 6-14 6-6 14-6-14-14-6 14-6z" fill="#fde68a" />
        <circle cx="70" cy="112" r="18" fill="#ffffff" opacity="0.18" />
        <circle cx="64" cy="110" r="3" fill="#ffffff" />
        <circle cx="76" cy="110" r="3" fill="#ffffff" />
      </>
    ),
  },
  // TX30: a field transmitter sending its 4-20 mA signal.
  3: {
    from: '#c2410c',
    to: '#7c2d12',
    art: (
      <>
        <rect x="64" y="40" width="80" height="64" rx="10" fill="#ffffff" opacity="0.92" />
        <rect x="76" y="52" width="56" height="24" rx="4" fill="#7c2d12" />
        <text x="104" y="69" textAnchor="middle" fontFamily="monospace" fontSize="13" fill="#fdba74">
          12.0 mA
        </text>
        <circle cx="84" cy="90" r="5" fill="#c2410c" />
        <circle cx="100" cy="90" r="5" fill="#fdba74" />
        <rect x="98" y="104" width="12" height="26" fill="#ffffff" opacity="0.7" />
        <rect x="80" y="128" width="48" height="8" rx="4" fill="#ffffff" opacity="0.7" />
        <path
          d="M170 58a30 30 0 0 1 0 36M186 46a48 48 0 0 1 0 60M202 34a66 66 0 0 1 0 84"
          fill="none"
          stroke="#fed7aa"
          strokeWidth="6"
          strokeLinecap="round"
        />
        <rect x="226" y="62" width="56" height="28" rx="6" fill="#ffffff" opacity="0.2" />
        <rect x="234" y="72" width="40" height="8" rx="4" fill="#fed7aa" />
      </>
    ),
  },
};

const Frame = styled.div<{ $from: string; $to: string; $height: number }>`
  height: ${(p) => p.$height}px;
  border-radius: 10px;
  overflow: hidden;
  background: linear-gradient(135deg, ${(p) => p.$from}, ${(p) => p.$to});
  svg { display: block; width: 100%; height: 100%; }
`;

export function hasIllustration(appId: number): boolean {
  return appId in SCENES;
}

/** Decorative: the app's name is written next to it. Nothing for apps without a presentation image. */
export function AppIllustration({ appId, height = 140 }: { appId: number; height?: number }) {
  const scene = SCENES[appId];
  if (!scene) return null;
  return (
    <Frame $from={scene.from} $to={scene.to} $height={height} aria-hidden="true" data-illustration={`app-${appId}`}>
      <svg viewBox="0 0 320 160" preserveAspectRatio="xMidYMid slice" aria-hidden="true">
        {scene.art}
      </svg>
    </Frame>
  );
}
