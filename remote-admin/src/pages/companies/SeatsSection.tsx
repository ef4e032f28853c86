import { type FormEvent, useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, Input, LoadFailed, Spinner, theme } from '@portal/shared';
import { listSeats, takeBackSeat } from '../../api/companies';
import type { CursorPage, Licence, Seat } from '../../api/company-types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FieldLabel, Panel } from '../../components/Page';
import { SelectField } from '../../components/SelectField';
import { memberName } from '../../rules/companies';
import { COMPANY_FALLBACK, TEXT_COMPANY } from '../../texts';
import type { SectionProps } from './CompanyPage';
import { SectionHead, StackedTable } from './CompanyTable';
import { MEMBERS_PAGE } from './MembersSection';

const Filters = styled.form`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 12px;
  margin-bottom: 16px;
  & > label:nth-child(2) { flex: 1 1 240px; min-width: 0; }
  & > label > input { width: 100%; box-sizing: border-box; }
`;

const More = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  margin-top: 12px;
  p { margin: 0; color: ${theme.color.muted}; }
`;

/** The seats assigned, by app and email, 50 at a time; each taken back after a question. */
export function SeatsSection({
  companyId,
  announce,
  licences,
  onSeats,
}: SectionProps & { licences: Licence[]; onSeats(): void }) {
  const [appId, setAppId] = useState(0);
  const [typed, setTyped] = useState('');
  const [email, setEmail] = useState('');
  const [seats, setSeats] = useState<CursorPage<Seat> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [taking, setTaking] = useState<Seat | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const appName = (id: number) => licences.find((l) => l.app.id === id)?.app.nombre ?? `App ${id}`;

  useEffect(() => {
    let current = true;
    listSeats(companyId, { idApp: appId || undefined, email, limit: MEMBERS_PAGE }).then(
      (page) => {
        if (!current) return;
        setSeats(page);
        setError(null);
      },
      (failure) => {
        if (current) setError(errorMessage(failure, COMPANY_FALLBACK.seats));
      },
    );
    return () => {
      current = false;
    };
  }, [companyId, appId, email, reloads]);

  const loadMore = async () => {
    if (!seats?.siguiente) return;
    setLoadingMore(true);
    try {
      const page = await listSeats(companyId, {
        idApp: appId || undefined,
        email,
        cursor: seats.siguiente,
        limit: MEMBERS_PAGE,
      });
      setSeats({ ...page, data: [...seats.data, ...page.data] });
    } catch (failure) {
      setError(errorMessage(failure, COMPANY_FALLBACK.seats));
    } finally {
      setLoadingMore(false);
    }
  };

  const search = (event: FormEvent) => {
    event.preventDefault();
    setEmail(typed.trim());
  };
  const close = useCallback(() => setTaking(null), []);

  return (
    <Panel aria-labelledby="seats-title">
      <SectionHead>
        <h2 id="seats-title">{TEXT_COMPANY.seats}</h2>
      </SectionHead>
      <Filters onSubmit={search} role="search">
        <SelectField<number>
          id="seat-app-filter"
          label={TEXT_COMPANY.appFilter}
          value={appId}
          options={[
            { value: 0, label: TEXT_COMPANY.allApps },
            ...licences.map((l) => ({ value: l.app.id, label: l.app.nombre })),
          ]}
          onChange={setAppId}
        />
        <FieldLabel htmlFor="seat-email-filter">
          {TEXT_COMPANY.emailFilter}
          <Input
            id="seat-email-filter"
            type="search"
            value={typed}
            placeholder={TEXT_COMPANY.emailPlaceholder}
            onChange={(event) => setTyped(event.target.value)}
          />
        </FieldLabel>
        <Button type="submit" $variant="secondary">
          {TEXT_COMPANY.search}
        </Button>
      </Filters>
      {error && !seats && <LoadFailed message={error} onRetry={() => setReloads((n) => n + 1)} />}
      {error && seats && <Alert>{error}</Alert>}
      {!seats && !error && <Spinner label={TEXT_COMPANY.loadingMembers} />}
      {seats?.data.length === 0 && <p>{TEXT_COMPANY.noSeatsAssigned}</p>}
      {seats && seats.data.length > 0 && (
        <StackedTable aria-label={TEXT_COMPANY.seatsTable}>
          <thead>
            <tr>
              <th scope="col">{TEXT_COMPANY.colMember}</th>
              <th scope="col">{TEXT_COMPANY.app}</th>
              <th scope="col">{TEXT_COMPANY.colAssigned}</th>
              <th scope="col">{TEXT_COMPANY.colActions}</th>
            </tr>
          </thead>
          <tbody>
            {seats.data.map((seat) => (
              <tr key={`${seat.idUsuario}-${seat.idApp}`}>
                <td className="lead">
                  {memberName(seat)}
                  {memberName(seat) !== seat.email && <span className="sub">{seat.email}</span>}
                </td>
                <td data-label={TEXT_COMPANY.app}>{appName(seat.idApp)}</td>
                <td data-label={TEXT_COMPANY.colAssigned}>{new Date(seat.asignadoEn).toLocaleDateString('es-ES')}</td>
                <td className="actions">
                  <Button
                    $variant="danger"
                    aria-label={TEXT_COMPANY.takeBackSeatOf(appName(seat.idApp), seat.email)}
                    onClick={() => setTaking(seat)}
                  >
                    {TEXT_COMPANY.takeBack}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </StackedTable>
      )}
      {seats && seats.data.length > 0 && (
        <More>
          <p aria-live="polite">{TEXT_COMPANY.seatsShown(seats.data.length, seats.total)}</p>
          {seats.siguiente && (
            <Button $variant="secondary" disabled={loadingMore} onClick={() => void loadMore()}>
              {TEXT_COMPANY.loadMore}
            </Button>
          )}
        </More>
      )}
      {taking && (
        <ConfirmDialog
          title={TEXT_COMPANY.takeBackTitle(appName(taking.idApp), taking.email)}
          text={TEXT_COMPANY.takeBackText}
          confirmLabel={TEXT_COMPANY.takeBack}
          fallback={COMPANY_FALLBACK.seat}
          onClose={close}
          onConfirm={async () => {
            await takeBackSeat(companyId, taking.idUsuario, taking.idApp);
            setTaking(null);
            announce(TEXT_COMPANY.seatTakenBack(appName(taking.idApp)));
            setReloads((n) => n + 1);
            onSeats();
          }}
        />
      )}
    </Panel>
  );
}
