import styled, { css } from 'styled-components';
import { cardSurface, theme } from '@portal/shared';

/** The area right of the side panel. */
export const AdminPage = styled.main`
  padding: 24px;
  max-width: 1280px;
  width: 100%;
  box-sizing: border-box;
  h1 { margin: 0 0 20px; font-size: 1.6rem; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    padding: 16px 12px 32px;
    h1 { font-size: 1.35rem; }
  }
`;

export const Panel = styled.section`
  ${cardSurface}
  padding: 20px;
  margin-bottom: 24px;
  h2 { margin: 0 0 16px; font-size: 1.1rem; }
  @media (max-width: ${theme.breakpoint.mobile}) { padding: 14px; }
`;

export const FieldLabel = styled.label`
  display: flex;
  flex-direction: column;
  gap: 6px;
  font-weight: 600;
`;

/** A wrapping row with its items at both ends: a page's title and its button, a list's count and its page numbers. */
export const spreadRow = css`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: center;
  gap: 12px;
`;

/** The buttons at the end of a dialog: to the right, wrapping on a narrow screen. */
export const DialogActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 8px;
`;
