import styled from 'styled-components';
import { theme } from '@portal/shared';

/** The look the sections of the 'Seguridad' tab share: their lists, badges and rows of buttons. */

export const List = styled.ul`
  list-style: none;
  margin: 16px 0;
  padding: 0;
  li { border: 1px solid ${theme.color.border}; border-radius: 8px; padding: 12px 14px; margin-bottom: 10px; }
  p { margin: 2px 0; }
`;

/** A badge moves to the next line whole: a phone's line often ends inside 'Este dispositivo'. */
export const Badge = styled.span`
  display: inline-block;
  white-space: nowrap;
  margin-left: 8px;
  padding: 1px 8px;
  border-radius: 10px;
  font-size: 0.8rem;
  background: ${theme.color.primary};
  color: #fff;
`;

export const Row = styled.div`
  display: flex;
  gap: 8px;
  flex-wrap: wrap;
  margin-top: 8px;
  align-items: center;
`;

/** A section after the first: a rule above it. */
export const Section = styled.section`
  & + & { margin-top: 28px; padding-top: 20px; border-top: 1px solid ${theme.color.border}; }
  form { display: flex; flex-direction: column; gap: 12px; max-width: 360px; }
`;
