// Runs the three test identity providers as one process for the browser suite: one like Google on IDP_GOOGLE_PORT,
// one like Apple (form_post, JWT client secret) on IDP_APPLE_PORT, and a company's own (like Entra ID: no
// email_verified claim, the secret sent with HTTP Basic) on IDP_COMPANY_PORT. Google's and Apple's clients, redirect
// addresses and Apple's key come from the same variables the API reads (GOOGLE_*, APPLE_*, API_PUBLIC_URL), their
// issuers' host names too. The company's client is IDP_COMPANY_CLIENT_ID/SECRET: the API reads no variable for it (a
// platform administrator saves it with the company, PUT /admin/empresas/:id/proveedor), the browser suite gives both
// sides the same values; its issuer is named like the API (localhost). People are added with POST /__cuentas.
import { startIdentityProvider } from './identity-provider.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Falta la variable ${name}`);
  return value;
}

const apiUrl = required('API_PUBLIC_URL');
// The host name the API is told its issuers have (GOOGLE_ISSUER, APPLE_ISSUER).
const host = (name: string) => new URL(required(name)).hostname;
const google = await startIdentityProvider({
  kind: 'google',
  port: Number(required('IDP_GOOGLE_PORT')),
  host: host('GOOGLE_ISSUER'),
  clientId: required('GOOGLE_CLIENT_ID'),
  clientSecret: required('GOOGLE_CLIENT_SECRET'),
  redirectUris: [`${apiUrl}/auth/google/callback`],
});
const apple = await startIdentityProvider({
  kind: 'apple',
  port: Number(required('IDP_APPLE_PORT')),
  host: host('APPLE_ISSUER'),
  clientId: required('APPLE_CLIENT_ID'),
  redirectUris: [`${apiUrl}/auth/apple/callback`],
  apple: {
    teamId: required('APPLE_TEAM_ID'),
    keyId: required('APPLE_KEY_ID'),
    privateKeyPem: required('APPLE_PRIVATE_KEY').replace(/\\n/g, '\n'),
  },
});
const company = await startIdentityProvider({
  kind: 'company',
  port: Number(required('IDP_COMPANY_PORT')),
  host: new URL(apiUrl).hostname,
  clientId: required('IDP_COMPANY_CLIENT_ID'),
  clientSecret: required('IDP_COMPANY_CLIENT_SECRET'),
  redirectUris: [`${apiUrl}/auth/empresa/callback`],
});
console.log(
  `Proveedores de identidad de prueba: Google ${google.issuer}, Apple ${apple.issuer}, empresa ${company.issuer}`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void Promise.all([google.close(), apple.close(), company.close()]).finally(() => process.exit(0));
  });
}
