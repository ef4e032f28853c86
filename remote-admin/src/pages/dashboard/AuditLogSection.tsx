import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, theme, type AuditEntry, type Paged } from '@portal/shared';
import { listAuditLog } from '../../api/admin';
import { ADMIN_FALLBACK } from '../../api/texts';
import { Panel } from '../../components/Page';
import { auditActionLabel, auditDetails } from '../../rules/audit-format';
import { TEXT_ADMIN } from '../../texts';
import { TEXT_DASHBOARD } from './texts';

const Scroll = styled.div`overflow-x: auto;`;

const Table = styled.table`
  width: 100%;
  min-width: 720px;
  border-collapse: collapse;
  th, td { padding: 8px; text-align: left; border-bottom: 1px solid ${theme.color.border}; font-size: 0.9rem; }
  th { color: ${theme.color.muted}; }
`;

const Pager = styled.div`
  display: flex;
  gap: 8px;
  justify-content: flex-end;
  margin-top: 12px;
`;

export const AUDIT_PAGE_SIZE = 20;

/** The audit log (README: who did what to whom and when), newest first. */
export function AuditLogSection() {
  const [page, setPage] = useState(1);
  const [log, setLog] = useState<Paged<AuditEntry> | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    listAuditLog(page, AUDIT_PAGE_SIZE).then(
      (result) => {
        if (!current) return;
        setLog(result);
        setError(null);
      },
      (failure) => {
        if (current) setError(errorMessage(failure, ADMIN_FALLBACK.auditLog));
      },
    );
    return () => {
      current = false;
    };
  }, [page]);

  return (
    <Panel id="auditoria" aria-labelledby="auditoria-title" tabIndex={-1}>
      <h2 id="auditoria-title">{TEXT_DASHBOARD.auditLog}</h2>
      {error && <Alert>{error}</Alert>}
      {log && log.data.length === 0 && <p>{TEXT_DASHBOARD.auditEmpty}</p>}
      {log && log.data.length > 0 && (
        // Focusable, so that keyboard users can scroll it sideways on small screens.
        <Scroll tabIndex={0} role="group" aria-labelledby="auditoria-title">
          <Table>
            <thead>
              <tr>
                <th scope="col">{TEXT_ADMIN.auditWhen}</th>
                <th scope="col">{TEXT_DASHBOARD.auditWho}</th>
                <th scope="col">{TEXT_ADMIN.auditWhat}</th>
                <th scope="col">{TEXT_ADMIN.auditWhom}</th>
                <th scope="col">{TEXT_ADMIN.auditDetails}</th>
              </tr>
            </thead>
            <tbody>
              {log.data.map((entry) => (
                <tr key={entry.id}>
                  <td>{new Date(entry.createdAt).toLocaleString('es-ES')}</td>
                  <td>{entry.actorEmail}</td>
                  <td>{auditActionLabel(entry.action)}</td>
                  <td>{entry.targetLabel ?? `#${entry.targetId}`}</td>
                  <td>{auditDetails(entry)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Scroll>
      )}
      {log && log.totalPages > 1 && (
        <Pager>
          <Button $variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {TEXT_ADMIN.previous}
          </Button>
          <Button $variant="secondary" disabled={!log.hasNextPage} onClick={() => setPage(page + 1)}>
            {TEXT_ADMIN.next}
          </Button>
        </Pager>
      )}
    </Panel>
  );
}
