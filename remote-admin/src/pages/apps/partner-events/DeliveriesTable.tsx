import { useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, type PartnerDelivery, theme } from '@portal/shared';
import { listDeliveries, resendDelivery } from '../../../api/partner-events';
import { EVENTS_FALLBACK } from '../../../api/texts';
import { LoadMore, useCursorList } from '../../../components/CursorList';
import { LoadState } from '../../../components/LoadState';
import { StackedTable } from '../../../components/StackedTable';
import { StatusPill } from '../../../components/StatusPill';
import { canResend, deliveryState, formatDeliveryDate } from './partner-events';
import { SectionHead } from './SectionHead';
import { TEXT_EVENTS } from './texts';

const Section = styled.section`
  /* An event's name and a column's title read as one word; the next try goes under the state. */
  th, td.lead { white-space: nowrap; overflow-wrap: normal; }
  .when { display: block; margin-top: 4px; white-space: normal; color: ${theme.color.muted}; font-size: 0.85rem; }
`;

const Head = styled(SectionHead)`
  margin: 12px 0 4px;
`;

const C = TEXT_EVENTS.deliveryColumns;

/**
 * A subscription's recent deliveries, ten at a time: event, state, tries, last error and response code, and
 * 'Reenviar' for one the portal is done with. 'Actualizar' reads them again (a delivery's state changes on its own).
 */
export function DeliveriesTable({
  appId,
  subscriptionId,
  url,
  announce,
}: {
  appId: number;
  subscriptionId: string;
  url: string;
  announce(text: string): void;
}) {
  const deliveries = useCursorList(
    (cursor) => listDeliveries(appId, subscriptionId, cursor),
    EVENTS_FALLBACK.deliveries,
    [appId, subscriptionId],
  );
  const [resending, setResending] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const titleId = `entregas-${subscriptionId}`;

  const resend = async (delivery: PartnerDelivery) => {
    setResending(delivery.id);
    setFailure(null);
    try {
      const queued = await resendDelivery(appId, subscriptionId, delivery.id);
      const page = deliveries.data;
      if (page) deliveries.setData({ ...page, data: page.data.map((d) => (d.id === queued.id ? queued : d)) });
      announce(TEXT_EVENTS.resent);
    } catch (caught) {
      setFailure(errorMessage(caught, EVENTS_FALLBACK.resend));
    } finally {
      setResending(null);
    }
  };

  return (
    <Section aria-labelledby={titleId}>
      <Head level={5} id={titleId} title={TEXT_EVENTS.deliveries}>
        <Button $variant="secondary" aria-label={TEXT_EVENTS.refreshDeliveriesOf(url)} onClick={deliveries.reload}>
          {TEXT_EVENTS.refresh}
        </Button>
      </Head>
      {failure && <Alert>{failure}</Alert>}
      <LoadState state={deliveries} loading={TEXT_EVENTS.loadingDeliveries} empty={TEXT_EVENTS.noDeliveries}>
        {(page) => (
          <>
            <StackedTable
              aria-label={TEXT_EVENTS.deliveriesOf(url)}
              columns={[C.event, C.state, C.tries, C.lastError, C.code, C.date, C.actions]}
            >
              {page.data.map((delivery) => {
                const state = deliveryState(delivery);
                return (
                  <tr key={delivery.id} data-testid="entrega">
                    <td className="lead">
                      {delivery.evento}
                      <span className="sub">n.º {delivery.seq}</span>
                    </td>
                    <td data-label={C.state} className="nowrap">
                      <StatusPill $tone={state.tone}>{state.text}</StatusPill>
                      {delivery.proximoIntento && (
                        <span className="when">{TEXT_EVENTS.nextTry(formatDeliveryDate(delivery.proximoIntento))}</span>
                      )}
                    </td>
                    <td data-label={C.tries}>{delivery.intentos}</td>
                    <td data-label={C.lastError}>{delivery.ultimoError ?? TEXT_EVENTS.noError}</td>
                    <td data-label={C.code}>{delivery.codigoRespuesta ?? TEXT_EVENTS.noCode}</td>
                    <td data-label={C.date} className="nowrap">
                      {formatDeliveryDate(delivery.ultimoIntento ?? delivery.creadaEn)}
                    </td>
                    <td className="actions">
                      {canResend(delivery) && (
                        <Button
                          $variant="secondary"
                          aria-label={TEXT_EVENTS.resendOf(delivery.evento, delivery.seq)}
                          disabled={resending !== null}
                          onClick={() => void resend(delivery)}
                        >
                          {TEXT_EVENTS.resend}
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </StackedTable>
            <LoadMore
              shown={TEXT_EVENTS.shownOf(page.data.length)}
              more={Boolean(page.siguiente)}
              busy={deliveries.loadingMore}
              onMore={() => void deliveries.loadMore()}
            />
          </>
        )}
      </LoadState>
    </Section>
  );
}
