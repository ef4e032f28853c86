import styled from 'styled-components';
import { theme } from '@portal/shared';

export const Anchor = styled.div`
  position: relative;
`;

export const IconButton = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  padding: 0;
  border: 0;
  border-radius: 50%;
  background: transparent;
  color: ${theme.color.text};
  cursor: pointer;
  overflow: hidden;
  &:hover { background: ${theme.color.background}; }
  img { width: 36px; height: 36px; border-radius: 50%; object-fit: cover; }
`;

/** A dropdown under its button; `$fixed` pins it to the top right of the screen (mobile user agents, spec §2). */
export const Panel = styled.div<{ $fixed?: boolean; $width: number }>`
  position: ${(p) => (p.$fixed ? 'fixed' : 'absolute')};
  top: ${(p) => (p.$fixed ? '64px' : 'calc(100% + 8px)')};
  right: ${(p) => (p.$fixed ? '8px' : '0')};
  width: min(${(p) => p.$width}px, calc(100vw - 16px));
  max-height: calc(100vh - 80px);
  overflow: auto;
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
  padding: 12px;
  z-index: 200;
`;
