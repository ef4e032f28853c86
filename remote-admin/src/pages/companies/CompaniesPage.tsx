import { useCallback, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import styled from 'styled-components';
import { Alert, Button, theme, useSession, useTimedMessage } from '@portal/shared';
import { createCompany, listCompanies, updateCompany } from '../../api/companies';
import type { CompanyListItem, CompanyStatus } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDialog, FormText } from '../../components/FormDialog';
import { LoadState } from '../../components/LoadState';
import { AdminPage, Panel, spreadRow } from '../../components/Page';
import { ListFooter } from '../../components/Pagination';
import { SelectField } from '../../components/SelectField';
import { StackedTable } from '../../components/StackedTable';
import { StatusPill } from '../../components/StatusPill';
import { useLoad } from '../../hooks/useLoad';
import { companyStatusLabel, isPlatformAdmin, managedCompanies } from '../../rules/companies';
import { formatRegistrationDate } from '../../rules/format';
import { ADMIN_ALERT_MS } from '../../texts';
import { SearchFilter } from './SearchFilter';
import { TEXT_COMPANY } from './texts';

const Head = styled.div`
  ${spreadRow}
  margin-bottom: 20px;
  h1 { margin: 0; }
`;

const Links = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li { padding: 12px 0; border-bottom: 1px solid ${theme.color.border}; }
  a { font-weight: 700; }
`;

const STATUS_OPTIONS: readonly { value: CompanyStatus | ''; label: string }[] = [
  { value: '', label: TEXT_COMPANY.allStatuses },
  { value: 'activa', label: TEXT_COMPANY.statusActive },
  { value: 'suspendida', label: TEXT_COMPANY.statusSuspended },
];

/**
 * /admin/empresas. A platform administrator gets every company (search, state, pages, create, rename, suspend); a
 * company's owner or administrator goes straight to their company, or picks among theirs when they manage several.
 */
export default function CompaniesPage() {
  const user = useSession((s) => s.user);
  if (isPlatformAdmin(user)) return <PlatformCompanies />;
  const mine = managedCompanies(user);
  if (mine.length === 1 && mine[0]) return <Navigate to={`/admin/empresas/${mine[0].id}`} replace />;
  return (
    <AdminPage>
      <h1>{TEXT_COMPANY.yourCompanies}</h1>
      <Panel>
        {mine.length === 0 ? (
          <p>{TEXT_COMPANY.noManagedCompany}</p>
        ) : (
          <Links>
            {mine.map((company) => (
              <li key={company.id}>
                <Link to={`/admin/empresas/${company.id}`}>{company.nombre}</Link>
              </li>
            ))}
          </Links>
        )}
      </Panel>
    </AdminPage>
  );
}

type Dialog =
  | { kind: 'create' }
  | { kind: 'rename'; company: CompanyListItem }
  | { kind: 'status'; company: CompanyListItem }
  | null;

function PlatformCompanies() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const [nombre, setNombre] = useState('');
  const [estado, setEstado] = useState<CompanyStatus | ''>('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);

  const companies = useLoad(() => listCompanies({ page, limit, nombre, estado }), COMPANY_FALLBACK.list, [
    page,
    limit,
    nombre,
    estado,
  ]);
  const { data: list, reload } = companies;

  const close = useCallback(() => setDialog(null), []);
  /** After a dialog's change: the dialog closes, the outcome is said and the list loaded again. */
  const done = (text: string) => {
    setDialog(null);
    showAlert({ tone: 'success', text });
    reload();
  };

  return (
    <AdminPage>
      <Head>
        <h1>{TEXT_COMPANY.companiesTitle}</h1>
        <Button onClick={() => setDialog({ kind: 'create' })}>{TEXT_COMPANY.newCompany}</Button>
      </Head>
      {alert && <Alert tone={alert.tone}>{alert.text}</Alert>}
      <Panel>
        <SearchFilter
          id="company-name-filter"
          label={TEXT_COMPANY.nameFilter}
          placeholder={TEXT_COMPANY.namePlaceholder}
          onSearch={(text) => {
            setPage(1);
            setNombre(text);
          }}
          after={
            <SelectField
              id="company-status-filter"
              label={TEXT_COMPANY.statusFilter}
              value={estado}
              options={STATUS_OPTIONS}
              onChange={(value) => {
                setPage(1);
                setEstado(value);
              }}
            />
          }
        />
        <LoadState
          state={companies}
          loading={TEXT_COMPANY.loadingCompanies}
          empty={nombre || estado ? TEXT_COMPANY.noCompanies : TEXT_COMPANY.noCompaniesYet}
        >
          {(paged) => (
            <StackedTable
              aria-label={TEXT_COMPANY.companiesTable}
              columns={[
                TEXT_COMPANY.colCompany,
                TEXT_COMPANY.colStatus,
                TEXT_COMPANY.colMembers,
                TEXT_COMPANY.colLicences,
                TEXT_COMPANY.colCreated,
                TEXT_COMPANY.colActions,
              ]}
            >
              {paged.data.map((company) => (
                <tr key={company.id}>
                  <td className="lead">
                    <Link to={`/admin/empresas/${company.id}`}>{company.nombre}</Link>
                  </td>
                  <td data-label={TEXT_COMPANY.colStatus}>
                    <StatusPill $tone={company.estado === 'activa' ? 'ok' : 'danger'}>
                      {companyStatusLabel(company.estado)}
                    </StatusPill>
                  </td>
                  <td data-label={TEXT_COMPANY.colMembers}>{company.miembros.toLocaleString('es-ES')}</td>
                  <td data-label={TEXT_COMPANY.colLicences}>{company.licencias}</td>
                  <td className="nowrap" data-label={TEXT_COMPANY.colCreated}>
                    {formatRegistrationDate(company.createdAt)}
                  </td>
                  <td className="actions">
                    <Button
                      $variant="secondary"
                      aria-label={TEXT_COMPANY.renameOf(company.nombre)}
                      onClick={() => setDialog({ kind: 'rename', company })}
                    >
                      {TEXT_COMPANY.rename}
                    </Button>
                    <Button
                      $variant={company.estado === 'activa' ? 'danger' : 'secondary'}
                      aria-label={
                        company.estado === 'activa'
                          ? TEXT_COMPANY.suspendOf(company.nombre)
                          : TEXT_COMPANY.reactivateOf(company.nombre)
                      }
                      onClick={() => setDialog({ kind: 'status', company })}
                    >
                      {company.estado === 'activa' ? TEXT_COMPANY.suspend : TEXT_COMPANY.reactivate}
                    </Button>
                  </td>
                </tr>
              ))}
            </StackedTable>
          )}
        </LoadState>
        {list && (
          <ListFooter
            id="companies-page-size"
            sizeLabel={TEXT_COMPANY.pageSize}
            limit={limit}
            onLimit={(next) => {
              setLimit(next);
              setPage(1);
            }}
            page={page}
            totalPages={list.totalPages}
            hasNextPage={list.hasNextPage}
            onPage={setPage}
            summary={TEXT_COMPANY.companiesFound(list.total)}
          />
        )}
      </Panel>
      {dialog?.kind === 'create' && (
        <NameDialog
          title={TEXT_COMPANY.newCompany}
          initial=""
          onClose={close}
          onSave={async (nombre) => {
            await createCompany(nombre);
            done(TEXT_COMPANY.companyCreated(nombre));
          }}
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={TEXT_COMPANY.renameTitle(dialog.company.nombre)}
          initial={dialog.company.nombre}
          onClose={close}
          onSave={async (nombre) => {
            await updateCompany(dialog.company.id, { nombre });
            done(TEXT_COMPANY.companyRenamed);
          }}
        />
      )}
      {dialog?.kind === 'status' && <StatusDialog company={dialog.company} onClose={close} onDone={done} />}
    </AdminPage>
  );
}

/** A company's name, new or changed: required, sent trimmed. */
function NameDialog({
  title,
  initial,
  onClose,
  onSave,
}: {
  title: string;
  initial: string;
  onClose(): void;
  onSave(nombre: string): Promise<void>;
}) {
  return (
    <FormDialog
      title={title}
      initial={{ nombre: initial }}
      labels={{ nombre: TEXT_COMPANY.name }}
      validate={(form) => (form.nombre.trim() ? null : TEXT_COMPANY.nameRequired)}
      onSubmit={(form) => onSave(form.nombre.trim())}
      onClose={onClose}
    >
      {({ bind }) => <FormText label={TEXT_COMPANY.name} wide {...bind('nombre')} />}
    </FormDialog>
  );
}

function StatusDialog({
  company,
  onClose,
  onDone,
}: {
  company: CompanyListItem;
  onClose(): void;
  onDone(text: string): void;
}) {
  const suspending = company.estado === 'activa';
  return (
    <ConfirmDialog
      title={suspending ? TEXT_COMPANY.suspendTitle(company.nombre) : TEXT_COMPANY.reactivateTitle(company.nombre)}
      text={suspending ? TEXT_COMPANY.suspendText : TEXT_COMPANY.reactivateText}
      confirmLabel={suspending ? TEXT_COMPANY.suspend : TEXT_COMPANY.reactivate}
      fallback={COMPANY_FALLBACK.save}
      onClose={onClose}
      onConfirm={async () => {
        await updateCompany(company.id, { estado: suspending ? 'suspendida' : 'activa' });
        onDone(
          suspending ? TEXT_COMPANY.companySuspended(company.nombre) : TEXT_COMPANY.companyReactivated(company.nombre),
        );
      }}
    />
  );
}
