import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  planLabel,
  Alert,
  Button,
  errorMessage,
  Input,
  Modal,
  Spinner,
  theme,
  type ShowMessage,
  type UserAppPlanInfo,
  useSubmit,
  useTimedMessage,
  Select,
  type AdminUser,
} from '@portal/shared';
import { changeUserAppPlan, getUserAppPlans } from '../../api/admin';
import { ADMIN_FALLBACK } from '../../api/texts';
import { FieldLabel } from '../../components/Page';
import { formatExpiryDate, whoLine } from '../../rules/format';
import { canSavePlan, expiryToSend, initialExpiry, NO_PLAN_ID, planExpires, visiblePlanApps } from '../../rules/plans';
import { ADMIN_ALERT_MS, TEXT_ADMIN } from '../../texts';
import { PLAN_SAVED, TEXT_USERS } from './texts';

const Row = styled.li`
  display: grid;
  grid-template-columns: minmax(140px, 1fr) minmax(160px, 1fr) minmax(160px, 1fr) auto;
  gap: 12px;
  align-items: end;
  padding: 14px 0;
  border-bottom: 1px solid ${theme.color.border};
  h3 { margin: 0 0 12px; font-size: 1rem; align-self: center; }
  @media (max-width: ${theme.breakpoint.mobile}) { grid-template-columns: 1fr; }
`;

/** Who the dialog is about, under its title (the spec's title names nobody). */
const Whose = styled.p`
  margin: -8px 0 16px;
  color: ${theme.color.muted};
  overflow-wrap: anywhere;
`;

/** Where a paid plan's date input is: a free plan's line saying it does not expire. */
const NoExpiry = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
  span:first-child { font-weight: 600; }
  span:last-child { min-height: 44px; display: flex; align-items: center; color: ${theme.color.muted}; }
`;

/** A line under the row, across its columns. */
const Note = styled.p`
  grid-column: 1 / -1;
  margin: 0;
  color: ${theme.color.muted};
  overflow-wrap: anywhere;
`;

/** A company seat beside the own plan: read-only, named by its company. */
const Seat = styled.p`
  grid-column: 1 / -1;
  margin: 0;
  padding: 8px 12px;
  border-radius: 6px;
  background: ${theme.color.background};
  overflow-wrap: anywhere;
  span:first-child { font-weight: 600; margin-right: 8px; }
`;

const List = styled.ul`
  list-style: none;
  margin: 0 0 16px;
  padding: 0;
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  margin-top: 12px;
`;

function PlanRow({
  info,
  userId,
  show,
  onSaved,
}: {
  info: UserAppPlanInfo;
  userId: number;
  /** The dialog's banner, shared by every row. */
  show: ShowMessage;
  onSaved: () => Promise<void>;
}) {
  // What an administrator edits is the person's own plan: a company seat is the company's (decision 0077).
  const own = info.planPropio;
  const [planId, setPlanId] = useState(own?.id ?? NO_PLAN_ID);
  // A free plan's stored date means nothing (it never ends): a paid plan chosen instead starts a year ahead.
  const [expiry, setExpiry] = useState(() =>
    initialExpiry(own && planExpires(own.id, info.planesApp) ? own.fechaVencimiento : null, new Date()),
  );
  const { busy: saving, submit } = useSubmit(show);
  const base = `plan-${info.app.id}`;
  const expires = planExpires(planId, info.planesApp);
  const fechaVencimiento = expiryToSend(expires, expiry, new Date());

  const save = () => {
    if (!fechaVencimiento) return;
    void submit({
      call: () => changeUserAppPlan({ idUsuario: userId, idApp: info.app.id, idPlan: planId, fechaVencimiento }),
      // Said before the plans reload, so the banner does not wait for the list.
      success: async () => {
        show({ tone: 'success', text: PLAN_SAVED });
        await onSaved();
      },
      failure: (error) => (error instanceof Error && error.message ? error.message : ADMIN_FALLBACK.savePlan),
      afterSuccess: 'ready',
    });
  };

  return (
    <Row>
      <h3>{info.app.nombre}</h3>
      <FieldLabel htmlFor={`${base}-select`}>
        {TEXT_USERS.plan}
        <Select
          id={`${base}-select`}
          value={planId}
          onChange={(event) => setPlanId(Number(event.target.value))}
          disabled={saving}
        >
          {!own && <option value={NO_PLAN_ID}>{TEXT_USERS.noPlan}</option>}
          {info.planesApp.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {planLabel(plan)}
            </option>
          ))}
        </Select>
      </FieldLabel>
      {expires ? (
        <FieldLabel htmlFor={`${base}-expiry`}>
          {TEXT_USERS.expiry}
          <Input
            id={`${base}-expiry`}
            type="date"
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
            disabled={saving}
          />
        </FieldLabel>
      ) : (
        <NoExpiry>
          <span>{TEXT_USERS.expiry}</span>
          <span>{TEXT_USERS.noExpiry}</span>
        </NoExpiry>
      )}
      <Button
        onClick={save}
        disabled={!canSavePlan(planId, fechaVencimiento, saving)}
        aria-label={`${TEXT_ADMIN.save} ${info.app.nombre}`}
      >
        {saving ? TEXT_ADMIN.saving : TEXT_ADMIN.save}
      </Button>
      {own?.vencido && own.id === planId && expires && (
        <Note role="note">{TEXT_USERS.ownLapsed(formatExpiryDate(own.fechaVencimiento))}</Note>
      )}
      {info.puestos.map((seat) => (
        <Seat key={seat.empresa.id}>
          <span>{TEXT_USERS.seatOf(seat.empresa.nombre)}</span>
          <span>{TEXT_USERS.seatPlan(planLabel(seat.plan), formatExpiryDate(seat.fechaVencimiento))}</span>
        </Seat>
      ))}
    </Row>
  );
}

export interface PlansModalProps {
  user: Pick<AdminUser, 'id' | 'name' | 'lastName' | 'email'>;
  onClose(): void;
}

/** 'Planes del Usuario' (spec §2): the user's plan and expiry in each app, saved one app at a time. */
export function PlansModal({ user, onClose }: PlansModalProps) {
  const userId = user.id;
  const [infos, setInfos] = useState<UserAppPlanInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  // Bumped after each save so that every row starts again from the reloaded plans.
  const [version, setVersion] = useState(0);

  const load = useCallback(async () => {
    try {
      setInfos(visiblePlanApps(await getUserAppPlans(userId)));
      setLoadError(null);
    } catch (error) {
      setLoadError(errorMessage(error, ADMIN_FALLBACK.loadPlans));
      setInfos([]);
    }
  }, [userId]);

  useEffect(() => {
    void load();
  }, [load]);

  // A new save leaves the banner of the last one up until its own outcome replaces it.
  const show: ShowMessage = (message) => {
    if (message) showAlert(message);
  };

  const reload = async () => {
    await load();
    setVersion((n) => n + 1);
  };

  return (
    <Modal title={TEXT_USERS.plansTitle} onClose={onClose}>
      <Whose>{whoLine(user)}</Whose>
      {/* The rows start again after a save (the saved button with them): its outcome holds the focus meanwhile. */}
      {alert && (
        <Alert tone={alert.tone} holdsLostFocus>
          {alert.text}
        </Alert>
      )}
      {infos === null ? (
        <Spinner label={TEXT_USERS.loadingPlans} />
      ) : loadError ? (
        <Alert>{loadError}</Alert>
      ) : infos.length === 0 ? (
        <p>{TEXT_USERS.noPlans}</p>
      ) : (
        <List key={version}>
          {infos.map((info) => (
            <PlanRow key={info.app.id} info={info} userId={userId} show={show} onSaved={reload} />
          ))}
        </List>
      )}
      <Actions>
        <Button $variant="secondary" onClick={onClose}>
          {TEXT_ADMIN.close}
        </Button>
      </Actions>
    </Modal>
  );
}
