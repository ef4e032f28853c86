import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button, Select, theme } from '@portal/shared';
import { PAGE_SIZES, type PageStep, pageWindow } from '../rules/pagination';
import { TEXT_ADMIN } from '../texts';
import { FieldLabel, spreadRow } from './Page';

const Nav = styled.nav`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
  button { min-width: 44px; padding: 0 12px; }
  button[aria-current='page'] { background: ${theme.color.primary}; color: ${theme.color.primaryText}; }
`;

/**
 * Previous / next and up to 5 page numbers (spec §2, §9). With `onStep`, Previous and Next call it instead of asking
 * for the page number beside (the user list then sends the cursor of the page on screen). `hasNextPage`, when the
 * list's answer says it, decides Next instead of the page count (a capped total has pages past its count).
 */
export function Pagination({
  page,
  totalPages,
  onPage,
  onStep = (step) => onPage(step === 'next' ? page + 1 : page - 1),
  hasNextPage = page < totalPages,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  onStep?: (step: PageStep) => void;
  hasNextPage?: boolean;
}) {
  if (totalPages <= 1) return null;
  return (
    <Nav aria-label={TEXT_ADMIN.pagination}>
      <Button $variant="secondary" disabled={page <= 1} onClick={() => onStep('previous')}>
        {TEXT_ADMIN.previous}
      </Button>
      {pageWindow(page, totalPages).map((number) => (
        <Button
          key={number}
          $variant="secondary"
          aria-current={number === page ? 'page' : undefined}
          aria-label={TEXT_ADMIN.pageNumber(number)}
          onClick={() => onPage(number)}
        >
          {number}
        </Button>
      ))}
      <Button $variant="secondary" disabled={!hasNextPage} onClick={() => onStep('next')}>
        {TEXT_ADMIN.next}
      </Button>
    </Nav>
  );
}

const Footer = styled.div`
  ${spreadRow}
  margin-top: 16px;
  & > p { margin: 0; flex-basis: 100%; color: ${theme.color.muted}; }
`;

const SizeLabel = styled(FieldLabel)`
  flex-direction: row;
  align-items: center;
`;

/** Under a paged list: what it counts (optional), the page-size choice (10 to 50) and the page numbers. */
export function ListFooter({
  id,
  sizeLabel,
  limit,
  onLimit,
  page,
  totalPages,
  onPage,
  onStep,
  hasNextPage,
  summary,
}: {
  /** The size select's id. */
  id: string;
  sizeLabel: string;
  limit: number;
  onLimit: (limit: number) => void;
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  onStep?: (step: PageStep) => void;
  hasNextPage?: boolean;
  summary?: ReactNode;
}) {
  return (
    <Footer>
      {summary && <p aria-live="polite">{summary}</p>}
      <SizeLabel htmlFor={id}>
        {sizeLabel}
        <Select id={id} value={limit} onChange={(event) => onLimit(Number(event.target.value))}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </Select>
      </SizeLabel>
      <Pagination page={page} totalPages={totalPages} onPage={onPage} onStep={onStep} hasNextPage={hasNextPage} />
    </Footer>
  );
}
