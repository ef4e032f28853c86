import styled from 'styled-components';
import { theme } from '../ui/theme';

/**
 * Label and value pairs, a value to hand over with its 'Copiar' beside it: three columns on a computer, two on a phone
 * (the label above its value).
 */
export const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr) auto;
  gap: 8px 12px;
  align-items: center;
  margin: 0 0 16px;
  dt { font-weight: 700; color: ${theme.color.muted}; font-size: 0.9rem; }
  dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
  dd.wide { grid-column: 2 / -1; }
  code { display: block; overflow-wrap: anywhere; padding: 6px 8px; border-radius: 6px; background: ${theme.color.background}; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    grid-template-columns: minmax(0, 1fr) auto;
    dt { grid-column: 1 / -1; }
    dd.wide { grid-column: 1 / -1; }
  }
`;
