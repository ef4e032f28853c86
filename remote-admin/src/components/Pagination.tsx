import styled from 'styled-components';
import { Button, theme } from '@portal/shared';
import { pageWindow } from '../model/pagination';
import { TEXT_ADMIN } from '../texts';

const Nav = styled.nav`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
  button { min-width: 44px; padding: 0 12px; }
  button[aria-current='page'] { background: ${theme.color.primary}; color: ${theme.color.primaryText}; }
`;

/** Previous / next and up to 5 page numbers (spec §2, §9). */
export function Pagination({
  page,
  totalPages,
  onPage,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}) {
  if (totalPages <= 1) return null;
  return (
    <Nav aria-label={TEXT_ADMIN.pagination}>
      <Button $variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {TEXT_ADMIN.previous}
      </Button>
      {pageWindow(page, totalPages).map((number) => (
        <Button
          key={number}
          $variant="secondary"
          aria-current={number === page ? 'page' : undefined}
          aria-label={`Página ${number}`}
          onClick={() => onPage(number)}
        >
          {number}
        </Button>
      ))}
      <Button $variant="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        {TEXT_ADMIN.next}
      </Button>
    </Nav>
  );
}
