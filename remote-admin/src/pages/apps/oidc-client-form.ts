import { redirectUrisRequired } from '@portal/contracts/identity-provider/clients';
import type { OidcClient, OidcClientInput, OidcScope, OidcSubjectKind } from '@portal/shared';
import { splitLines, urisProblem } from '../../rules/oidc-uris';
import { TEXT_APPS } from './texts';

export type ClientType = 'confidencial' | 'publico';

/** 'App del catálogo': none. */
export const NO_APP = 0;

/**
 * The scopes an administrator may allow, in the order the form lists them (`openid` always): every scope the API
 * knows, since a box the form did not show would be dropped on saving (TEXT_APPS.scopeLabels names each one).
 */
export const OIDC_SCOPES = Object.keys(TEXT_APPS.scopeLabels) as readonly OidcScope[];

/** The kinds of `sub` an administrator chooses from, in the order the form lists them; the first is a new client's. */
export const SUBJECT_KINDS: readonly OidcSubjectKind[] = ['opaco', 'por_cliente', 'numerico'];

/** The client form's fields as the inputs hold them: the address lists one per line. */
export interface OidcClientForm {
  nombre: string;
  redirectUris: string;
  postLogoutRedirectUris: string;
  backchannelLogoutUri: string;
  initiateLoginUri: string;
  tipo: ClientType;
  primeraParte: boolean;
  appId: number;
  scopes: OidcScope[];
  sujeto: OidcSubjectKind;
  /** May sign in on a device without keyboard or browser (RFC 8628), confirmed by the person at /dispositivo. */
  dispositivos: boolean;
}

export const emptyOidcClientForm: OidcClientForm = {
  nombre: '',
  redirectUris: '',
  postLogoutRedirectUris: '',
  backchannelLogoutUri: '',
  initiateLoginUri: '',
  tipo: 'confidencial',
  primeraParte: false,
  appId: NO_APP,
  scopes: ['openid'],
  sujeto: 'opaco',
  dispositivos: false,
};

export function clientToForm(client: OidcClient): OidcClientForm {
  return {
    nombre: client.nombre,
    redirectUris: client.redirectUris.join('\n'),
    postLogoutRedirectUris: client.postLogoutRedirectUris.join('\n'),
    backchannelLogoutUri: client.backchannelLogoutUri ?? '',
    initiateLoginUri: client.initiateLoginUri ?? '',
    tipo: client.publico ? 'publico' : 'confidencial',
    primeraParte: client.primeraParte,
    appId: client.appId ?? NO_APP,
    scopes: withScope(client.scopes, 'openid', true),
    sujeto: client.sujeto,
    dispositivos: client.dispositivos,
  };
}

/**
 * The scopes with `scope` ticked or not, in the form's order; `openid` stays, and so does any scope the form does not
 * list (one the API learnt after this panel was built), so that saving never takes it away.
 */
export function withScope(scopes: readonly OidcScope[], scope: OidcScope, on: boolean): OidcScope[] {
  const listed = OIDC_SCOPES.filter((s) => s === 'openid' || (s === scope ? on : scopes.includes(s)));
  return [...listed, ...scopes.filter((s) => !OIDC_SCOPES.includes(s))];
}

/** Whether the form asks for a return address: the API's rule (@portal/contracts), read from the form's fields. */
export function asksForRedirectUris(form: Pick<OidcClientForm, 'tipo' | 'dispositivos'>): boolean {
  return redirectUrisRequired({ publico: form.tipo === 'publico', dispositivos: form.dispositivos });
}

const optional = (value: string) => (value.trim() ? [value.trim()] : []);

/**
 * The form's error, or null: a name, at least one return address (unless asksForRedirectUris says none is needed),
 * and every address of the kind its field takes (rules/oidc-uris.ts); the return addresses of a public client may use
 * the app's own scheme. The server decides the rest.
 */
export function validateOidcClientForm(form: OidcClientForm): string | null {
  if (!form.nombre.trim()) return TEXT_APPS.nameRequired;
  const redirects = splitLines(form.redirectUris);
  if (redirects.length === 0 && asksForRedirectUris(form)) return TEXT_APPS.redirectUrisRequired;
  const returns = form.tipo === 'publico' ? 'app' : 'web';
  return (
    urisProblem(TEXT_APPS.redirectUris, redirects, returns) ??
    urisProblem(TEXT_APPS.postLogoutRedirectUris, splitLines(form.postLogoutRedirectUris), returns) ??
    urisProblem(TEXT_APPS.backchannelLogoutUri, optional(form.backchannelLogoutUri)) ??
    urisProblem(TEXT_APPS.initiateLoginUri, optional(form.initiateLoginUri), 'https')
  );
}

/** What the server is sent: every field; lists split by line, empty addresses as null, `plan` only with an app. */
export function formToClientInput(form: OidcClientForm): OidcClientInput {
  const appId = form.appId === NO_APP ? null : form.appId;
  return {
    nombre: form.nombre.trim(),
    redirectUris: splitLines(form.redirectUris),
    postLogoutRedirectUris: splitLines(form.postLogoutRedirectUris),
    backchannelLogoutUri: form.backchannelLogoutUri.trim() || null,
    initiateLoginUri: form.initiateLoginUri.trim() || null,
    publico: form.tipo === 'publico',
    primeraParte: form.primeraParte,
    appId,
    scopes: form.scopes.filter((scope) => scope !== 'plan' || appId !== null),
    sujeto: form.sujeto,
    dispositivos: form.dispositivos,
  };
}
