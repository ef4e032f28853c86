import styled from 'styled-components';
import { theme } from '@portal/shared';
import type { CompanyViewer } from '../../rules/companies';

/** What the company page hands each of its sections. */
export interface SectionProps {
  companyId: number;
  viewer: CompanyViewer;
  /** Says a change's outcome at the top of the page. */
  announce(text: string): void;
  /** The company's active members, once its page has loaded (null before). */
  memberCount: number | null;
  /** The company's name ('' before its page has loaded). */
  companyName: string;
}

/** The buttons of a section's head: to the right of its title, wrapping under it on a phone. */
export const SectionHead = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: center;
  gap: 12px;
  margin-bottom: 16px;
  h2 { margin: 0; }
`;

/**
 * A section's facts: each a label (`dt`), its value (`dd`) and, beside it, an optional button (`dd.action`, 'Copiar').
 * A value without a button spans both columns (`dd.wide`). On a phone the label goes above its value.
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

/** The notices above a section's facts (a last error, a certificate about to end), spaced apart. */
export const Notices = styled.div`
  display: grid;
  gap: 8px;
  margin: 0 0 16px;
  &:empty { display: none; }
`;
