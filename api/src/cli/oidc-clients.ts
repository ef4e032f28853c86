// The OpenID Connect clients from the console, as the admin panel manages them (docs/decisions/0055): the same
// domain rules, Spanish refusals and audit entries (as 'operador (CLI)').
import { operatorActor } from '../domain/audit/log.js';
import {
  clientNotFound,
  clientView,
  createClient,
  deleteClient,
  findClient,
  libraryCheck,
  listClients,
  type OidcClientInput,
  type OidcClientView,
  rotateClientSecret,
  updateClient,
} from '../domain/identity-provider/oidc/clients.js';
import { type AccountCommand, type OptionValues, Refusal } from './command.js';
import { type OidcSubjectKind, oidcSubjectKinds } from '../db/schema.js';

const clientIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
const clientIdArgument = (raw: string) => {
  if (!clientIdPattern.test(raw)) throw new Refusal(`«${raw}» no es un client_id.`, 2);
};

const list = (values: OptionValues, name: string): string[] => {
  const value = values[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);
};
const text = (values: OptionValues, name: string): string | undefined =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;

/** The --app option, a catalogue app's id: refused before any database is opened. */
function checkAppId(values: OptionValues): void {
  const appId = text(values, 'app');
  if (appId !== undefined && !/^[1-9][0-9]{0,9}$/.test(appId))
    throw new Refusal(`«${appId}» no es el id de una app.`, 2);
}
const appIdOf = (values: OptionValues) => (text(values, 'app') === undefined ? undefined : Number(values.app));

/** The --sujeto option: a word the console checks before any database is opened. */
function checkSubject(values: OptionValues): void {
  const kind = text(values, 'sujeto');
  if (kind !== undefined && !(oidcSubjectKinds as readonly string[]).includes(kind))
    throw new Refusal(`«${kind}» no es un identificador de la persona: numerico, opaco o por_cliente.`, 2);
}

/** How the console names a client's kind of subject (subjects.ts). */
const subjectNames: Record<OidcSubjectKind, string> = {
  numerico: 'numerico (el id de la cuenta)',
  opaco: 'opaco (un id aleatorio, igual en todas las apps opaco)',
  por_cliente: 'por_cliente (distinto en cada app)',
};

/** A client as the console shows it: every address it has registered, never its secret. */
function describeClient(client: OidcClientView): string {
  const uris = (list: readonly string[]) => (list.length > 0 ? list.join(' ') : 'ninguna');
  return [
    `${client.nombre} (${client.clientId})`,
    `  tipo: ${client.publico ? 'público' : 'confidencial'}, ${client.primeraParte ? 'primera parte' : 'tercera parte'}${client.appId ? `, app ${client.appId}` : ''}`,
    `  redirección: ${uris(client.redirectUris)}`,
    `  tras cerrar sesión: ${uris(client.postLogoutRedirectUris)}`,
    `  cierre de sesión (canal trasero): ${client.backchannelLogoutUri ?? 'ninguna'}`,
    `  inicio de sesión desde el portal: ${client.initiateLoginUri ?? 'ninguna'}`,
    `  permisos: ${client.scopes.join(' ')}`,
    `  identificador de la persona (sub): ${subjectNames[client.sujeto]}`,
    `  dispositivos (RFC 8628): ${client.dispositivos ? 'sí' : 'no'}`,
  ].join('\n');
}

/** Pairs of options that say opposite things: naming both is a mistake, not a choice. */
const opposites = [
  ['publico', 'confidencial'],
  ['primera-parte', 'tercera-parte'],
  ['app', 'sin-app'],
  ['tras-cerrar', 'sin-tras-cerrar'],
  ['cierre-sesion', 'sin-cierre-sesion'],
  ['inicio-sesion', 'sin-inicio-sesion'],
  ['dispositivos', 'sin-dispositivos'],
] as const;

/** What the options of a change say, refused before any database is opened when they say nothing or contradict. */
function checkChange(values: OptionValues): void {
  if (Object.values(values).every((value) => value === undefined))
    throw new Refusal('modificar-cliente-oidc necesita al menos un cambio (npm run admin -- ayuda).', 2);
  for (const [one, other] of opposites)
    if (values[one] !== undefined && values[other] !== undefined)
      throw new Refusal(`--${one} y --${other} no van juntas.`, 2);
  checkAppId(values);
  checkSubject(values);
}

/** The client's settings with the options given applied; what is not named stays as it is. */
function changedInput(current: OidcClientView, values: OptionValues): OidcClientInput {
  const address = (given: string, cleared: string, now: string | null) =>
    values[cleared] === true ? null : (text(values, given) ?? now);
  const choice = (yes: string, no: string, now: boolean) =>
    values[yes] === true ? true : values[no] === true ? false : now;
  const addresses = (given: string, now: string[]) => (values[given] === undefined ? now : list(values, given));
  return {
    nombre: text(values, 'nombre') ?? current.nombre,
    redirectUris: addresses('redireccion', current.redirectUris),
    postLogoutRedirectUris:
      values['sin-tras-cerrar'] === true ? [] : addresses('tras-cerrar', current.postLogoutRedirectUris),
    backchannelLogoutUri: address('cierre-sesion', 'sin-cierre-sesion', current.backchannelLogoutUri),
    initiateLoginUri: address('inicio-sesion', 'sin-inicio-sesion', current.initiateLoginUri),
    publico: choice('publico', 'confidencial', current.publico),
    primeraParte: choice('primera-parte', 'tercera-parte', current.primeraParte),
    appId: values['sin-app'] === true ? null : (appIdOf(values) ?? current.appId),
    scopes: text(values, 'permisos')?.split(',') ?? current.scopes,
    sujeto: text(values, 'sujeto') ?? current.sujeto,
    dispositivos: choice('dispositivos', 'sin-dispositivos', current.dispositivos),
  };
}

export const oidcClientCommands: Record<string, AccountCommand> = {
  'clientes-oidc': {
    kind: 'account',
    positionals: 0,
    async run(app) {
      const clients = await listClients(app.db);
      if (clients.length === 0)
        return 'No hay clientes OpenID Connect. Registra uno: npm run admin -- crear-cliente-oidc';
      return clients.map(describeClient).join('\n\n');
    },
  },

  'crear-cliente-oidc': {
    kind: 'account',
    positionals: 1,
    positional: (raw) => {
      if (!raw.trim()) throw new Refusal('El nombre del cliente es requerido.', 2);
    },
    options: {
      redireccion: { type: 'string', multiple: true },
      'tras-cerrar': { type: 'string', multiple: true },
      'cierre-sesion': { type: 'string' },
      'inicio-sesion': { type: 'string' },
      publico: { type: 'boolean' },
      'primera-parte': { type: 'boolean' },
      app: { type: 'string' },
      permisos: { type: 'string' },
      sujeto: { type: 'string' },
      dispositivos: { type: 'boolean' },
    },
    checkOptions: (values) => {
      checkAppId(values);
      checkSubject(values);
    },
    async run(app, [nombre = ''], values) {
      const { client, clientSecret } = await createClient(
        app.db,
        operatorActor,
        {
          nombre,
          redirectUris: list(values, 'redireccion'),
          postLogoutRedirectUris: list(values, 'tras-cerrar'),
          backchannelLogoutUri: text(values, 'cierre-sesion') ?? null,
          initiateLoginUri: text(values, 'inicio-sesion') ?? null,
          publico: values.publico === true,
          primeraParte: values['primera-parte'] === true,
          appId: appIdOf(values) ?? null,
          dispositivos: values.dispositivos === true,
          ...(text(values, 'permisos') !== undefined ? { scopes: (text(values, 'permisos') ?? '').split(',') } : {}),
          ...(text(values, 'sujeto') !== undefined ? { sujeto: text(values, 'sujeto') } : {}),
        },
        libraryCheck(app.identityProvider.provider),
      );
      return [
        `Cliente creado: ${client.nombre}`,
        `client_id: ${client.clientId}`,
        ...(clientSecret
          ? [`client_secret (se muestra solo esta vez): ${clientSecret}`]
          : ['Cliente público: sin secreto.']),
        `Emisor (issuer): ${app.config.oidcIssuer}`,
      ].join('\n');
    },
  },

  'modificar-cliente-oidc': {
    kind: 'account',
    positionals: 1,
    positional: clientIdArgument,
    options: {
      nombre: { type: 'string' },
      redireccion: { type: 'string', multiple: true },
      'tras-cerrar': { type: 'string', multiple: true },
      'sin-tras-cerrar': { type: 'boolean' },
      'cierre-sesion': { type: 'string' },
      'sin-cierre-sesion': { type: 'boolean' },
      'inicio-sesion': { type: 'string' },
      'sin-inicio-sesion': { type: 'boolean' },
      publico: { type: 'boolean' },
      confidencial: { type: 'boolean' },
      'primera-parte': { type: 'boolean' },
      'tercera-parte': { type: 'boolean' },
      app: { type: 'string' },
      'sin-app': { type: 'boolean' },
      permisos: { type: 'string' },
      sujeto: { type: 'string' },
      dispositivos: { type: 'boolean' },
      'sin-dispositivos': { type: 'boolean' },
    },
    checkOptions: checkChange,
    async run(app, [clientId = ''], values) {
      const row = await findClient(app.db, clientId);
      if (!row) throw clientNotFound();
      // The same rules, library check and audit entry (with the fields changed) as PUT /admin/clientes-oidc.
      const { client, clientSecret } = await updateClient(
        app.db,
        operatorActor,
        clientId,
        changedInput(clientView(row), values),
        libraryCheck(app.identityProvider.provider),
      );
      return [
        'Cliente modificado:',
        describeClient(client),
        ...(clientSecret ? [`Ahora es confidencial. client_secret (se muestra solo esta vez): ${clientSecret}`] : []),
      ].join('\n');
    },
  },

  'rotar-secreto-oidc': {
    kind: 'account',
    positionals: 1,
    positional: clientIdArgument,
    async run(app, [clientId = '']) {
      const { clientSecret } = await rotateClientSecret(app.db, operatorActor, clientId);
      return `Secreto nuevo de ${clientId} (se muestra solo esta vez): ${clientSecret}\nEl anterior ya no vale.`;
    },
  },

  'eliminar-cliente-oidc': {
    kind: 'account',
    positionals: 1,
    positional: clientIdArgument,
    async run(app, [clientId = '']) {
      await deleteClient(app.db, operatorActor, clientId);
      return `Cliente ${clientId} eliminado, con todos sus tokens.`;
    },
  },
};
