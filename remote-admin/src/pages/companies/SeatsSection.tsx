import { useCallback, useState } from 'react';
import { Alert, Button, errorMessage } from '@portal/shared';
import { listSeats, memberAppRoles, takeBackSeat } from '../../api/companies';
import type { Licence, MemberAppRoles, Seat } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadMore, useCursorList } from '../../components/CursorList';
import { LoadState } from '../../components/LoadState';
import { Panel } from '../../components/Page';
import { SelectField } from '../../components/SelectField';
import { StackedTable } from '../../components/StackedTable';
import { memberName } from '../../rules/companies';
import { MEMBERS_PAGE } from './MembersSection';
import { SearchFilter } from './SearchFilter';
import { SeatRolesDialog } from './SeatRolesDialog';
import { SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

/**
 * The seats assigned, by app and email, 50 at a time; each one's roles in its app given in a dialog; each taken back
 * after a question.
 */
export function SeatsSection({
  companyId,
  announce,
  licences,
  onSeats,
}: SectionProps & { licences: Licence[]; onSeats(): void }) {
  const [appId, setAppId] = useState(0);
  const [email, setEmail] = useState('');
  const seats = useCursorList(
    (cursor) => listSeats(companyId, { idApp: appId || undefined, email, cursor, limit: MEMBERS_PAGE }),
    COMPANY_FALLBACK.seats,
    [companyId, appId, email],
  );
  const [taking, setTaking] = useState<Seat | null>(null);
  const [giving, setGiving] = useState<{ seat: Seat; entry: MemberAppRoles | undefined } | null>(null);
  const [opening, setOpening] = useState<Seat | null>(null);
  const [rolesError, setRolesError] = useState<string | null>(null);
  const appName = (id: number) => licences.find((l) => l.app.id === id)?.app.nombre ?? `App ${id}`;

  const close = useCallback(() => setTaking(null), []);
  const closeRoles = useCallback(() => setGiving(null), []);

  /** The member's roles are read first, so the dialog opens with them. */
  const openRoles = async (seat: Seat) => {
    setOpening(seat);
    setRolesError(null);
    try {
      const apps = await memberAppRoles(companyId, seat.idUsuario);
      setGiving({ seat, entry: apps.find((app) => app.idApp === seat.idApp) });
    } catch (failure) {
      setRolesError(errorMessage(failure, COMPANY_FALLBACK.roles));
    } finally {
      setOpening(null);
    }
  };

  return (
    <Panel aria-labelledby="seats-title">
      <SectionHead>
        <h2 id="seats-title">{TEXT_COMPANY.seats}</h2>
      </SectionHead>
      <SearchFilter
        id="seat-email-filter"
        type="search"
        label={TEXT_COMPANY.emailFilter}
        placeholder={TEXT_COMPANY.emailPlaceholder}
        onSearch={setEmail}
        before={
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
        }
      />
      {rolesError && <Alert>{rolesError}</Alert>}
      <LoadState
        state={seats}
        loading={TEXT_COMPANY.loadingMembers}
        empty={email || appId ? TEXT_COMPANY.noSeatsAssigned : TEXT_COMPANY.noSeatsAssignedYet}
      >
        {(page) => (
          <>
            <StackedTable
              aria-label={TEXT_COMPANY.seatsTable}
              columns={[TEXT_COMPANY.colMember, TEXT_COMPANY.app, TEXT_COMPANY.colAssigned, TEXT_COMPANY.colActions]}
            >
              {page.data.map((seat) => (
                <tr key={`${seat.idUsuario}-${seat.idApp}`}>
                  <td className="lead">
                    {memberName(seat)}
                    {memberName(seat) !== seat.email && <span className="sub">{seat.email}</span>}
                  </td>
                  <td data-label={TEXT_COMPANY.app}>{appName(seat.idApp)}</td>
                  <td className="nowrap" data-label={TEXT_COMPANY.colAssigned}>
                    {new Date(seat.asignadoEn).toLocaleDateString('es-ES')}
                  </td>
                  <td className="actions">
                    <Button
                      $variant="secondary"
                      aria-label={TEXT_COMPANY.seatRolesOf(appName(seat.idApp), seat.email)}
                      // While the roles are read the button stays focusable, so the dialog gives the focus back to it.
                      aria-disabled={opening !== null || undefined}
                      onClick={() => opening === null && void openRoles(seat)}
                    >
                      {TEXT_COMPANY.seatRoles}
                    </Button>
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
            </StackedTable>
            <LoadMore
              shown={TEXT_COMPANY.seatsShown(page.data.length, page.total)}
              more={Boolean(page.siguiente)}
              busy={seats.loadingMore}
              onMore={() => void seats.loadMore()}
            />
          </>
        )}
      </LoadState>
      {giving && (
        <SeatRolesDialog
          companyId={companyId}
          userId={giving.seat.idUsuario}
          title={TEXT_COMPANY.seatRolesTitle(appName(giving.seat.idApp), giving.seat.email)}
          entries={giving.entry ? [giving.entry] : []}
          gone={TEXT_COMPANY.seatGone}
          onClose={closeRoles}
          onSaved={() => {
            setGiving(null);
            announce(TEXT_COMPANY.rolesSaved(appName(giving.seat.idApp), giving.seat.email));
          }}
        />
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
            seats.reload();
            onSeats();
          }}
        />
      )}
    </Panel>
  );
}
