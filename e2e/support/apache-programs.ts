// A partner app that lets people in by the role the portal gives them, with software this project did not write, as
// e2e/tests/app-roles-apache.spec.ts starts it: Apache with mod_auth_openidc (Debian's `libapache2-mod-auth-openidc`)
// as an OpenID Connect relying party, and Apache with mod_auth_mellon as a SAML service provider. Each answers
// `/cuenta/` to whoever signed in and `/supervision/` only to who holds the role, both pages printing what the module
// set from the portal's claims or attributes (e2e/support/saml-programs.ts: the processes, the folder, the pages).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  type ApacheProcess,
  claimsPage,
  folderFor,
  mellonServiceProvider,
  type MellonSp,
  needs,
  startApache,
  write,
} from './saml-programs';

const OPENIDC_MODULE = '/usr/lib/apache2/modules/mod_auth_openidc.so';
const MELLON_MODULE = '/usr/lib/apache2/modules/mod_auth_mellon.so';
/** The REFEDS MFA profile: the AuthnContextClassRef of a sign-in that proved a second factor. */
const REFEDS_MFA = 'https://refeds.org/profile/mfa';

/** The two pages every role app has: one for whoever signed in, one for the role's holders. */
export interface RoleApp extends ApacheProcess {
  accountUrl: string;
  supervisionUrl: string;
}

/** The address mod_auth_openidc takes the portal's answer at, for the client's registration. */
export function openidcRedirectUri(port: number, host = 'localhost'): string {
  return `http://${host}:${port}/oidc/callback`;
}

function pages(folder: string, title: string, fields: [id: string, variable: string][], more: string[] = []): void {
  for (const page of ['cuenta', 'supervision', ...more])
    write(path.join(folder, 'htdocs', page, 'index.shtml'), claimsPage(`${title}: ${page}`, fields));
}

/**
 * Apache with mod_auth_openidc, a confidential client of the provider at `issuer` (its discovery), asking `scope`:
 * `/cuenta/` for anyone signed in, `/supervision/` behind `Require claim roles:<role>`; a person signed in without
 * the role gets Apache's 403. The pages show the `email` and `roles` claims (a list is joined by commas).
 */
export async function startOpenidcRoleApp(options: {
  port: number;
  host?: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  role: string;
}): Promise<RoleApp> {
  needs([OPENIDC_MODULE], 'apt-get install apache2 libapache2-mod-auth-openidc', 'las pruebas con mod_auth_openidc');
  const host = options.host ?? 'localhost';
  const folder = folderFor('openidc');
  pages(folder, 'App OpenID Connect', [
    ['email', 'OIDC_CLAIM_email'],
    ['roles', 'OIDC_CLAIM_roles'],
  ]);
  const apache = await startApache({
    name: 'Apache con mod_auth_openidc',
    folder,
    host,
    port: options.port,
    modules: [['auth_openidc_module', 'mod_auth_openidc.so']],
    logLevel: 'warn auth_openidc:debug',
    locations: `OIDCProviderMetadataURL ${options.issuer}/.well-known/openid-configuration
OIDCClientID ${options.clientId}
OIDCClientSecret ${options.clientSecret}
OIDCRedirectURI ${openidcRedirectUri(options.port, host)}
OIDCCryptoPassphrase ${randomBytes(24).toString('hex')}
OIDCScope "${options.scope}"
OIDCPKCEMethod S256
OIDCRemoteUserClaim email
# A person signed in without the role: Apache's 403, not another trip to the provider.
OIDCUnAutzAction 403
<Location /oidc>
    AuthType openid-connect
    Require valid-user
</Location>
<Location /cuenta>
    AuthType openid-connect
    Require valid-user
</Location>
<Location /supervision>
    AuthType openid-connect
    Require claim roles:${options.role}
    AuthzSendForbiddenOnFailure On
</Location>`,
  });
  return { ...apache, accountUrl: `${apache.url}/cuenta/`, supervisionUrl: `${apache.url}/supervision/` };
}

/**
 * Apache with mod_auth_mellon, one SP for the whole site (its endpoints under `/mellon`) trusting the IdP whose
 * metadata XML is `idpMetadata`: `/cuenta/` for anyone signed in, `/supervision/` behind
 * `MellonCond "roles" "<role>"`; a person signed in without the role gets Apache's 403; `/consignas/`, a second SP
 * (`setpointsSp`), asks the IdP for the REFEDS MFA profile (RequestedAuthnContext, comparison `minimum`) and lets in
 * only an assertion of that class.
 * The pages show the `email` and `roles` attributes (the first value; every one is listed below as MELLON_roles_0…).
 */
export async function startMellonRoleApp(options: {
  port: number;
  host?: string;
  idpMetadata: string;
  role: string;
}): Promise<RoleApp & { sp: MellonSp; setpointsUrl: string; setpointsSp: MellonSp }> {
  needs([MELLON_MODULE]);
  const host = options.host ?? 'localhost';
  const url = `http://${host}:${options.port}`;
  const folder = folderFor('mellon-roles');
  const idpFile = path.join(folder, 'idp-metadata.xml');
  write(idpFile, options.idpMetadata);
  const { sp, directives } = mellonServiceProvider({ url, at: '', spFolder: path.join(folder, 'sp'), idpFile });
  // mellon builds the AuthnRequest, and checks the answer's class, with the settings of its endpoint's location: the
  // page that asks for more is an SP of its own, its endpoint inside it.
  const setpoints = mellonServiceProvider({
    url,
    at: '/consignas',
    spFolder: path.join(folder, 'sp-consignas'),
    idpFile,
  });
  pages(
    folder,
    'App SAML',
    [
      ['email', 'MELLON_email'],
      ['roles', 'MELLON_roles'],
    ],
    ['consignas'],
  );
  const apache = await startApache({
    name: 'Apache con mod_auth_mellon (roles)',
    folder,
    host,
    port: options.port,
    modules: [['auth_mellon_module', 'mod_auth_mellon.so']],
    logLevel: 'warn auth_mellon:debug',
    locations: `<Location />
    MellonEnable info
    MellonVariable planta
    ${directives}
</Location>
<Location /cuenta>
    MellonEnable auth
    AuthType Mellon
    Require valid-user
</Location>
<Location /supervision>
    MellonEnable auth
    AuthType Mellon
    Require valid-user
    MellonCond "roles" "${options.role}"
</Location>
<Location /consignas>
    MellonEnable auth
    MellonVariable consignas
    ${setpoints.directives}
    AuthType Mellon
    Require valid-user
    MellonAuthnContextClassRef "${REFEDS_MFA}"
    MellonAuthnContextComparisonType minimum
</Location>`,
  });
  return {
    ...apache,
    sp,
    accountUrl: `${url}/cuenta/`,
    supervisionUrl: `${url}/supervision/`,
    setpointsUrl: `${url}/consignas/`,
    setpointsSp: setpoints.sp,
  };
}
