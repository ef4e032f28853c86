import type { ReactNode } from 'react';
import type { App } from '@portal/shared';
import type { FormDialogWhole } from '../../components/FormDialog';
import { emptyOidcClientForm, type OidcClientForm } from './oidc-client-form';
import type { OneTimeSecret } from './OneTimeSecretDialog';
import { type SamlAppForm, samlAppToForm } from './SamlAppFields';

/** The protocols a partner app connects by: OpenID Connect (a client) or SAML 2.0 (a service provider). */
export type Protocol = 'oidc' | 'saml';

/** The connection dialog's values: the protocol chosen and each protocol's part, so a change of mind keeps both. */
export interface ConnectionForm {
  protocolo: Protocol;
  oidc: OidcClientForm;
  saml: SamlAppForm;
}

export const emptyConnectionForm: ConnectionForm = {
  protocolo: 'oidc',
  oidc: emptyOidcClientForm,
  saml: samlAppToForm(null),
};

/** What an action did: the message the page shows, and a secret to show once (an OpenID Connect client's). */
export interface Outcome {
  done: string;
  secret?: OneTimeSecret;
}

/** The question before an action that cannot be undone (rotate a secret, delete an app), and the action. */
export interface Confirmation {
  title: string;
  text: string;
  confirmLabel: string;
  fallback: string;
  run(): Promise<Outcome>;
}

/** A button of a row, named for its app: open the editor, ask before an action, or open a panel under the row. */
export type RowAction = { text: string; name: string } & (
  | { kind: 'edit' }
  | { kind: 'confirm'; confirmation: Confirmation }
  | { kind: 'panel'; panelId: string; panel: ReactNode }
);

/** One connected app as the list shows it: its protocol's details and buttons, and how it is edited. */
export interface ConnectedAppRow {
  key: string;
  protocol: Protocol;
  /** The row's test id, one per protocol, as the browser tests find them. */
  testId: string;
  nombre: string;
  details: ReactNode;
  actions: RowAction[];
  edit: { title: string; initial: ConnectionForm; save(form: ConnectionForm): Promise<Outcome> };
}

/** What a protocol's rows read from the page: the catalogue's name of an app. */
export interface RowContext {
  appName(appId: number | null): string;
}

/**
 * One protocol's part of 'Aplicaciones conectadas': how its apps are listed and shown, created, and checked before
 * sending; the list, its rows, the dialog and the questions are the section's, once for every protocol.
 */
export interface ConnectionProtocol<T> {
  protocol: Protocol;
  list(): Promise<T[]>;
  /** What a failed list says when the server gives no message. */
  listFallback: string;
  row(item: T, context: RowContext): ConnectedAppRow;
  create(form: ConnectionForm): Promise<Outcome>;
  validate(form: ConnectionForm, editing: boolean): string | null;
  labels: Readonly<Record<string, string>>;
  /** The protocol's fields in the dialog; `editing` names the app being edited. */
  fields(props: ProtocolFieldsProps): ReactNode;
}

/** A protocol's part of the dialog: what does not depend on the kind of app it lists. */
export type ProtocolPart = Pick<ConnectionProtocol<unknown>, 'protocol' | 'create' | 'validate' | 'labels' | 'fields'>;

export interface ProtocolFieldsProps {
  fields: FormDialogWhole<ConnectionForm>;
  apps: readonly Pick<App, 'id' | 'nombre'>[];
  /** The form the app was opened with when editing; null for a new app. */
  saved: ConnectionForm | null;
}
