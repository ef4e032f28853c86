import type { ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '@portal/shared';

const Frame = styled.div`
  container-type: inline-size;
`;

/**
 * A table of the panel's lists. Where its box is narrow (a phone) each row becomes a card, as on the users page: the
 * first cell (`.lead`) is the card's title, each labelled cell (`data-label`) a line, `.actions` the buttons; a cell
 * of long tokens (emails, URLs) is `.token`.
 */
const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  th, td { padding: 10px 8px; text-align: left; border-bottom: 1px solid ${theme.color.border}; vertical-align: middle; }
  /*
   * In a row, a word breaks only when it alone is wider than its column: 'anywhere' would let the table squeeze a
   * column below its words and split them. A cell of long tokens (an email, a URL, a domain: class token) breaks
   * anywhere, so it never widens the page; a date is 'nowrap' (below), so a narrow column never breaks it mid-token.
   */
  td { overflow-wrap: break-word; }
  td.token { overflow-wrap: anywhere; }
  th { font-size: 0.85rem; color: ${theme.color.muted}; font-weight: 700; }
  td.lead { font-weight: 700; overflow-wrap: anywhere; }
  td.lead .sub { display: block; font-weight: 400; color: ${theme.color.muted}; font-size: 0.9rem; }
  td.actions { white-space: nowrap; }
  /* A date or a status reads as one piece in a table row; a card has room for it anyway. */
  td.nowrap { white-space: nowrap; overflow-wrap: normal; }
  td.actions > * + * { margin-left: 8px; }
  td.actions button { min-height: 36px; padding: 0 12px; }
  td[data-label]::before { display: none; }

  @container (max-width: 760px) {
    &, tbody, tr, td { display: block; width: 100%; box-sizing: border-box; }
    thead { display: none; }
    tr {
      margin-bottom: 12px;
      padding: 12px;
      border: 1px solid ${theme.color.border};
      border-radius: ${theme.radius};
      background: ${theme.color.surface};
    }
    /* A card's line has its own width: anything in it may break where it must. */
    td { padding: 4px 0; border: 0; display: flex; align-items: center; gap: 8px; flex-wrap: wrap; min-width: 0; overflow-wrap: anywhere; }
    td.lead { display: block; padding-bottom: 8px; }
    td[data-label]::before {
      display: inline;
      content: attr(data-label);
      flex: 0 0 104px;
      overflow-wrap: normal;
      font-size: 0.85rem;
      font-weight: 700;
      color: ${theme.color.muted};
    }
    td.actions, td.nowrap { white-space: normal; }
    td.actions { padding-top: 8px; }
    td.actions > * + * { margin-left: 0; }
  }
`;

/** `columns` head the table (a `false` one is left out); `children` are its rows. */
export function StackedTable({
  columns,
  children,
  ...rest
}: {
  columns: readonly (string | false)[];
  children: ReactNode;
  'aria-label': string;
}) {
  return (
    <Frame>
      <Table {...rest}>
        <thead>
          <tr>
            {columns.map(
              (column) =>
                column !== false && (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </Table>
    </Frame>
  );
}
