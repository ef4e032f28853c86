// The OpenID Connect clients from the console, as the admin panel manages them (docs/decisions/0055): the same
// domain rules, Spanish refusals and audit entries (as 'operador (CLI)').
import { operatorActor } from '../domain/accounts/audit.js';
import {
  createClient,
  deleteClient,
  libraryCheck,
  listClients,
  rotateClientSecret,
} from '../domain/identity-provider/clients.js';
import { type AccountCommand, type OptionValues, Refusal } from './command.js';

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

export const oidcClientCommands: Record<string, AccountCommand> = {
  'clientes-oidc': {
    kind: 'account',
    positionals: 0,
    async run(app) {
      const clients = await listClients(app.db);
      if (clients.length === 0)
        return 'No hay clientes OpenID Connect. Registra uno: npm run admin -- crear-cliente-oidc';
      return clients
        .map((client) =>
          [
            `${client.nombre} (${client.clientId})`,
            `  tipo: ${client.publico ? 'público' : 'confidencial'}, ${client.primeraParte ? 'primera parte' : 'tercera parte'}${client.appId ? `, app ${client.appId}` : ''}`,
            `  redirección: ${client.redirectUris.join(' ')}`,
            `  permisos: ${client.scopes.join(' ')}`,
          ].join('\n'),
        )
        .join('\n\n');
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
    },
    async run(app, [nombre = ''], values) {
      const appId = text(values, 'app');
      if (appId !== undefined && !/^[1-9][0-9]{0,9}$/.test(appId))
        throw new Refusal(`«${appId}» no es el id de una app.`, 2);
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
          appId: appId === undefined ? null : Number(appId),
          ...(text(values, 'permisos') !== undefined ? { scopes: (text(values, 'permisos') ?? '').split(',') } : {}),
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
