import { Alert, Button, errorMessage, useSubmit } from '@portal/shared';
import { downloadSeatReport, getSeatReport } from '../../api/companies';
import { COMPANY_FALLBACK } from '../../api/texts';
import { LoadState } from '../../components/LoadState';
import { Panel } from '../../components/Page';
import { StackedTable } from '../../components/StackedTable';
import { StatusPill } from '../../components/StatusPill';
import { useLoad } from '../../hooks/useLoad';
import { reportRowState } from '../../rules/companies';
import { formatExpiryDate } from '../../rules/format';
import { SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

/**
 * Seats per app and plan (bought, in use, free, over, waiting, the app's roles with how many people hold each, expiry)
 * and the same as a CSV file.
 */
export function ReportSection({ companyId, companyName }: SectionProps) {
  const report = useLoad(() => getSeatReport(companyId), COMPANY_FALLBACK.report, [companyId]);
  const { busy, message, submit } = useSubmit();

  const download = () =>
    void submit({
      afterSuccess: 'ready',
      call: () => downloadSeatReport(companyId),
      success: (file) => {
        const url = URL.createObjectURL(file);
        const link = document.createElement('a');
        link.href = url;
        link.download = TEXT_COMPANY.csvFileName(companyName);
        link.click();
        URL.revokeObjectURL(url);
      },
      failure: (caught) => errorMessage(caught, COMPANY_FALLBACK.report),
    });

  return (
    <Panel aria-labelledby="report-title">
      <SectionHead>
        <h2 id="report-title">{TEXT_COMPANY.seatReport}</h2>
        <Button $variant="secondary" disabled={busy || !report.data?.length} onClick={download}>
          {TEXT_COMPANY.downloadCsv}
        </Button>
      </SectionHead>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <LoadState state={report} loading={TEXT_COMPANY.loadingReport} empty={TEXT_COMPANY.noReport}>
        {(rows) => (
          <StackedTable
            aria-label={TEXT_COMPANY.reportTable}
            columns={[
              TEXT_COMPANY.app,
              TEXT_COMPANY.bought,
              TEXT_COMPANY.inUse,
              TEXT_COMPANY.free,
              TEXT_COMPANY.over,
              TEXT_COMPANY.waiting,
              TEXT_COMPANY.reportRoles,
              TEXT_COMPANY.expires,
              TEXT_COMPANY.state,
            ]}
          >
            {rows.map((row) => {
              const state = reportRowState(row);
              return (
                <tr key={`${row.app.id}-${row.plan.id}`}>
                  <td className="lead">
                    {row.app.nombre}
                    <span className="sub">{row.plan.nombre}</span>
                  </td>
                  <td data-label={TEXT_COMPANY.bought}>{row.comprados}</td>
                  <td data-label={TEXT_COMPANY.inUse}>{row.enUso}</td>
                  <td data-label={TEXT_COMPANY.free}>{row.libres}</td>
                  <td data-label={TEXT_COMPANY.over}>{row.excedidos}</td>
                  <td data-label={TEXT_COMPANY.waiting}>{row.esperando}</td>
                  <td data-label={TEXT_COMPANY.reportRoles}>
                    {row.roles.length === 0
                      ? TEXT_COMPANY.noRolesInReport
                      : row.roles.map((role) => TEXT_COMPANY.roleCount(role.nombre, role.personas)).join(' · ')}
                  </td>
                  <td data-label={TEXT_COMPANY.expires}>{formatExpiryDate(row.fechaVencimiento)}</td>
                  <td data-label={TEXT_COMPANY.state}>
                    <StatusPill $tone={row.vencida ? 'danger' : row.vencePronto ? 'warning' : 'ok'}>{state}</StatusPill>
                  </td>
                </tr>
              );
            })}
          </StackedTable>
        )}
      </LoadState>
    </Panel>
  );
}
