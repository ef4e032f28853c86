import { useState } from 'react';
import { Button } from '@portal/shared';
import { listCompanyAudit, listLicences } from '../../api/companies';
import { COMPANY_FALLBACK } from '../../api/texts';
import { LoadState } from '../../components/LoadState';
import { Panel } from '../../components/Page';
import { StackedTable } from '../../components/StackedTable';
import { useLoad } from '../../hooks/useLoad';
import { auditActionLabel, auditDetails } from '../../rules/audit-format';
import { companyAuditDetails, companyAuditSource } from '../../rules/companies';
import { TEXT_ADMIN } from '../../texts';
import type { SectionProps } from './SectionParts';
import { SiemDialog } from './SiemDialog';
import { TEXT_COMPANY } from './texts';

const PAGE_SIZE = 20;

/**
 * The company's own audit log, newest first: every change to its members, invitations, seats, domains, licences, its
 * own sign-in and directory, and where it came from (an administrator, the company's provider, its SCIM directory).
 */
export function ActivitySection({ companyId }: SectionProps) {
  const [page, setPage] = useState(1);
  const [siem, setSiem] = useState(false);
  const log = useLoad(() => listCompanyAudit(companyId, page, PAGE_SIZE), COMPANY_FALLBACK.audit, [companyId, page]);
  // The details name apps by id: the company's licences give their names.
  const licences = useLoad(() => listLicences(companyId), COMPANY_FALLBACK.licences, [companyId]);
  const appName = (id: number) =>
    licences.data?.find((licence) => licence.app.id === id)?.app.nombre ?? TEXT_COMPANY.appNumber(id);
  return (
    <Panel aria-labelledby="activity-title">
      <h2 id="activity-title">{TEXT_COMPANY.activity}</h2>
      <p>
        <Button $variant="secondary" onClick={() => setSiem(true)}>
          {TEXT_COMPANY.siemOpen}
        </Button>
      </p>
      {siem && <SiemDialog companyId={companyId} onClose={() => setSiem(false)} />}
      <LoadState state={{ data: log.data, error: log.error }} empty={TEXT_COMPANY.activityEmpty}>
        {(paged) => (
          <StackedTable
            aria-label={TEXT_COMPANY.activity}
            columns={[
              TEXT_ADMIN.auditWhen,
              TEXT_COMPANY.activityWho,
              TEXT_COMPANY.activitySource,
              TEXT_ADMIN.auditWhat,
              TEXT_ADMIN.auditWhom,
              TEXT_ADMIN.auditDetails,
            ]}
          >
            {paged.data.map((entry) => (
              <tr key={entry.id}>
                <td className="lead nowrap">{new Date(entry.createdAt).toLocaleString('es-ES')}</td>
                <td className="token" data-label={TEXT_COMPANY.activityWho}>
                  {entry.actorEmail}
                </td>
                <td data-label={TEXT_COMPANY.activitySource}>{companyAuditSource(entry)}</td>
                <td data-label={TEXT_ADMIN.auditWhat}>{auditActionLabel(entry.action)}</td>
                <td className="token" data-label={TEXT_ADMIN.auditWhom}>
                  {entry.targetLabel ?? `#${entry.targetId}`}
                </td>
                <td className="token" data-label={TEXT_ADMIN.auditDetails}>
                  {companyAuditDetails(entry.action, entry.details, appName) ?? auditDetails(entry)}
                </td>
              </tr>
            ))}
          </StackedTable>
        )}
      </LoadState>
      {log.data && log.data.totalPages > 1 && (
        <p>
          <Button $variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {TEXT_ADMIN.previous}
          </Button>{' '}
          <Button $variant="secondary" disabled={!log.data.hasNextPage} onClick={() => setPage(page + 1)}>
            {TEXT_ADMIN.next}
          </Button>
        </p>
      )}
    </Panel>
  );
}
