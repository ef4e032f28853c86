import styled from 'styled-components';
import type { CompanyViewer } from '../../rules/companies';

/** What the company page hands each of its sections. */
export interface SectionProps {
  companyId: number;
  viewer: CompanyViewer;
  /** Says a change's outcome at the top of the page. */
  announce(text: string): void;
  /** The company's active members, once its page has loaded (null before). */
  memberCount: number | null;
  /** A member left or was approved: the page's head reads the company's counts again. */
  onMembers(): void;
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

/** The notices above a section's facts (a last error, a certificate about to end), spaced apart. */
export const Notices = styled.div`
  display: grid;
  gap: 8px;
  margin: 0 0 16px;
  &:empty { display: none; }
`;
