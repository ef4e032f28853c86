import styled, { keyframes } from 'styled-components';
import { theme } from './theme';

const spin = keyframes`to { transform: rotate(360deg); }`;

const Wheel = styled.span`
  width: 36px;
  height: 36px;
  border: 4px solid ${theme.color.border};
  border-top-color: ${theme.color.primary};
  border-radius: 50%;
  animation: ${spin} 0.9s linear infinite;
  @media (prefers-reduced-motion: reduce) { animation-duration: 3s; }
`;

const Wrap = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 12px;
  padding: 48px 16px;
  color: ${theme.color.muted};
`;

/** A spinner with its text, announced to screen readers. */
export function Spinner({ label }: { label: string }) {
  return (
    <Wrap role="status" aria-live="polite">
      <Wheel aria-hidden="true" />
      <span>{label}</span>
    </Wrap>
  );
}
