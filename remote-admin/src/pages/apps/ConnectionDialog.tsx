import type { App } from '@portal/shared';
import { FormDialog } from '../../components/FormDialog';
import type { ConnectionForm, Protocol, ProtocolPart } from './connected-app';
import { TEXT_APPS } from './texts';

const PROTOCOLS: readonly Protocol[] = ['oidc', 'saml'];

export interface ConnectionDialogProps {
  title: string;
  initial: ConnectionForm;
  /** Each protocol's part, by its name. */
  protocols: Record<Protocol, ProtocolPart>;
  /** The catalogue's apps a connection may be tied to. */
  apps: readonly Pick<App, 'id' | 'nombre'>[];
  /** An existing app: its protocol stays, and its part says what an edit keeps. */
  editing: boolean;
  onSubmit(form: ConnectionForm): Promise<void>;
  onClose(): void;
}

/**
 * 'Conectar aplicación' and the editor of a connected app: on connecting, the protocol first ('OpenID Connect' or
 * 'SAML 2.0'), then that protocol's own part; the frame (the refusal, 'Cancelar', 'Guardar') is the panel's one
 * dialog. A change of protocol keeps what was typed in the other part.
 */
export function ConnectionDialog({ protocols, apps, editing, ...dialog }: ConnectionDialogProps) {
  const partOf = (form: ConnectionForm) => protocols[form.protocolo];
  return (
    <FormDialog
      {...dialog}
      validate={(form) => partOf(form).validate(form, editing)}
      labels={(form) => partOf(form).labels}
    >
      {(fields) => (
        <>
          {!editing && (
            <fieldset className="wide">
              <legend>{TEXT_APPS.protocol}</legend>
              {PROTOCOLS.map((protocol) => (
                <label key={protocol} className="check">
                  <input
                    type="radio"
                    name="connection-protocol"
                    value={protocol}
                    checked={fields.form.protocolo === protocol}
                    disabled={fields.saving}
                    onChange={() => fields.set('protocolo', protocol)}
                  />
                  {TEXT_APPS.protocolNames[protocol]}
                </label>
              ))}
            </fieldset>
          )}
          {partOf(fields.form).fields({ fields, apps, saved: editing ? dialog.initial : null })}
        </>
      )}
    </FormDialog>
  );
}
