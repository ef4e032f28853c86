import { useCallback, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, type PartnerSubscription, theme, useTimedMessage } from '@portal/shared';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  rotateSubscriptionSecret,
} from '../../../api/partner-events';
import { EVENTS_FALLBACK } from '../../../api/texts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadState } from '../../../components/LoadState';
import { StatusPill } from '../../../components/StatusPill';
import { useLoad } from '../../../hooks/useLoad';
import { ADMIN_ALERT_MS } from '../../../texts';
import type { RowAction } from '../connected-app';
import { type OneTimeSecret, OneTimeSecretDialog } from '../OneTimeSecretDialog';
import { DeliveriesTable } from './DeliveriesTable';
import { formToSubscriptionInput, type SubscriptionForm, subscriptionState } from './partner-events';
import { SectionHead } from './SectionHead';
import { SubscriptionDialog } from './SubscriptionDialog';
import { TEXT_EVENTS } from './texts';

const Area = styled.section`
  grid-column: 1 / -1;
  padding: 14px;
  border-radius: ${theme.radius};
  background: ${theme.color.background};
  > p { margin: 4px 0 12px; }
`;

const Subscriptions = styled.ul`
  list-style: none;
  margin: 12px 0 0;
  padding: 0;
  display: grid;
  gap: 12px;
  > li {
    padding: 12px;
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius};
    background: ${theme.color.surface};
    min-width: 0;
  }
  .top { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px; }
  .top code { overflow-wrap: anywhere; font-weight: 700; }
  .events { margin: 8px 0 0; color: ${theme.color.muted}; font-size: 0.9rem; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; }
`;

type Confirming = { kind: 'rotate' | 'delete'; subscription: PartnerSubscription } | null;

/** The connected app whose events the panel manages, whatever its protocol. */
export interface EventsApp {
  /** Its registry id, under which its subscriptions are. */
  idAplicacion: number;
  nombre: string;
}

/** The row button 'Eventos' of a connected app in the list, opening its panel under the row. */
export const eventsAction = (app: EventsApp): RowAction => ({
  kind: 'panel',
  text: TEXT_EVENTS.events,
  name: TEXT_EVENTS.eventsOf(app.nombre),
  panelId: `panel-eventos-${app.idAplicacion}`,
  panel: <PartnerEventsPanel app={app} />,
});

/**
 * 'Eventos' of one connected app (an OpenID Connect client or a SAML app): its receivers (address, events, active or
 * why not), a new one with its signing secret shown once, the secret's rotation and the receiver's removal (each after a question), and each
 * receiver's recent deliveries with 'Reenviar'.
 */
export function PartnerEventsPanel({ app }: { app: EventsApp }) {
  const subscriptions = useLoad(() => listSubscriptions(app.idAplicacion), EVENTS_FALLBACK.subscriptions, [
    app.idAplicacion,
  ]);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  const [creating, setCreating] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [secret, setSecret] = useState<OneTimeSecret | null>(null);
  const titleId = `eventos-${app.idAplicacion}`;
  const announce = useCallback((text: string) => showAlert({ tone: 'success', text }), [showAlert]);

  const showSecret = (secreto: string) =>
    setSecret({
      nombre: app.nombre,
      clientSecret: secreto,
      texts: { title: TEXT_EVENTS.secretTitle, label: TEXT_EVENTS.secretLabel, once: TEXT_EVENTS.secretOnce },
    });

  const create = async (form: SubscriptionForm) => {
    const { secreto } = await createSubscription(app.idAplicacion, formToSubscriptionInput(form));
    setCreating(false);
    announce(TEXT_EVENTS.subscriptionCreated);
    showSecret(secreto);
    subscriptions.reload();
  };

  const rotate = (subscription: PartnerSubscription) => async () => {
    const { secreto } = await rotateSubscriptionSecret(app.idAplicacion, subscription.id);
    setConfirming(null);
    announce(TEXT_EVENTS.secretRotated);
    showSecret(secreto);
  };

  const remove = (subscription: PartnerSubscription) => async () => {
    await deleteSubscription(app.idAplicacion, subscription.id);
    setConfirming(null);
    announce(TEXT_EVENTS.subscriptionDeleted);
    subscriptions.reload();
  };

  const confirmation = ({ kind, subscription }: NonNullable<Confirming>) =>
    kind === 'rotate'
      ? {
          title: TEXT_EVENTS.confirmRotateTitle,
          text: TEXT_EVENTS.confirmRotate,
          confirmLabel: TEXT_EVENTS.rotateSecret,
          onConfirm: rotate(subscription),
          fallback: EVENTS_FALLBACK.rotateSecret,
        }
      : {
          title: TEXT_EVENTS.confirmDeleteTitle,
          text: TEXT_EVENTS.confirmDelete(subscription.url),
          confirmLabel: TEXT_EVENTS.deleteSubscription,
          onConfirm: remove(subscription),
          fallback: EVENTS_FALLBACK.deleteSubscription,
        };

  return (
    <Area aria-labelledby={titleId} id={`panel-${titleId}`}>
      <SectionHead level={4} id={titleId} title={TEXT_EVENTS.eventsOf(app.nombre)}>
        <Button aria-label={TEXT_EVENTS.newSubscriptionOf(app.nombre)} onClick={() => setCreating(true)}>
          {TEXT_EVENTS.newSubscription}
        </Button>
      </SectionHead>
      <p>{TEXT_EVENTS.intro}</p>
      {alert && <Alert tone={alert.tone}>{alert.text}</Alert>}
      <LoadState state={subscriptions} loading={TEXT_EVENTS.loading} empty={TEXT_EVENTS.none}>
        {(list) => (
          <Subscriptions>
            {list.map((subscription) => {
              const state = subscriptionState(subscription);
              return (
                <li key={subscription.id} data-testid="suscripcion">
                  <div className="top">
                    <code>{subscription.url}</code>
                    <StatusPill $tone={state.tone}>{state.text}</StatusPill>
                  </div>
                  <p className="events">
                    {TEXT_EVENTS.subscriptionEvents}: {subscription.eventos.join(', ')}
                  </p>
                  <div className="actions">
                    <Button
                      $variant="secondary"
                      aria-label={TEXT_EVENTS.rotateSecretOf(subscription.url)}
                      onClick={() => setConfirming({ kind: 'rotate', subscription })}
                    >
                      {TEXT_EVENTS.rotateSecret}
                    </Button>
                    <Button
                      $variant="danger"
                      aria-label={TEXT_EVENTS.deleteSubscriptionOf(subscription.url)}
                      onClick={() => setConfirming({ kind: 'delete', subscription })}
                    >
                      {TEXT_EVENTS.deleteSubscription}
                    </Button>
                  </div>
                  <DeliveriesTable
                    appId={app.idAplicacion}
                    subscriptionId={subscription.id}
                    url={subscription.url}
                    announce={announce}
                  />
                </li>
              );
            })}
          </Subscriptions>
        )}
      </LoadState>
      {creating && (
        <SubscriptionDialog
          title={TEXT_EVENTS.newSubscriptionOf(app.nombre)}
          onSubmit={create}
          onClose={() => setCreating(false)}
        />
      )}
      {confirming && (
        <ConfirmDialog
          key={`${confirming.kind}-${confirming.subscription.id}`}
          {...confirmation(confirming)}
          onClose={() => setConfirming(null)}
        />
      )}
      {secret && <OneTimeSecretDialog secret={secret} onClose={() => setSecret(null)} />}
    </Area>
  );
}
