import { PARTNER_EVENT_TYPES } from '@portal/contracts/partner-events/event-types';
import { CheckField, FormDialog, FormText } from '../../../components/FormDialog';
import {
  EVENT_LABELS,
  emptySubscriptionForm,
  type SubscriptionForm,
  validateSubscriptionForm,
  withEvent,
} from './partner-events';
import { TEXT_EVENTS } from './texts';

/** The form's labels for the API's field names, so that a refusal names what the person sees. */
const SUBSCRIPTION_FIELD_LABELS = { url: TEXT_EVENTS.url, eventos: TEXT_EVENTS.eventTypes } as const;

/** 'Nueva suscripción': the receiver's https address and the events it wants, each named in Spanish. */
export function SubscriptionDialog({
  title,
  onSubmit,
  onClose,
}: {
  title: string;
  onSubmit(form: SubscriptionForm): Promise<void>;
  onClose(): void;
}) {
  return (
    <FormDialog
      title={title}
      initial={emptySubscriptionForm}
      validate={validateSubscriptionForm}
      labels={SUBSCRIPTION_FIELD_LABELS}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {({ form, set, saving, bind }) => (
        <>
          <FormText label={TEXT_EVENTS.url} hint={TEXT_EVENTS.urlHint} wide {...bind('url')} />
          <fieldset className="wide">
            <legend>{TEXT_EVENTS.eventTypes}</legend>
            {PARTNER_EVENT_TYPES.map((type) => (
              <CheckField
                key={type}
                label={EVENT_LABELS[type]}
                value={form.eventos.includes(type)}
                onChange={(on) => set('eventos', withEvent(form.eventos, type, on))}
                disabled={saving}
              />
            ))}
          </fieldset>
        </>
      )}
    </FormDialog>
  );
}
