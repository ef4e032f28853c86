// Runs the two test identity providers as one process for the browser suite: one like Google on IDP_GOOGLE_PORT,
// one like Apple (form_post, JWT client secret) on IDP_APPLE_PORT. The clients, redirect address and Apple key come
// from the same variables the API reads (GOOGLE_*, APPLE_*, API_PUBLIC_URL), the issuers' host names too. People are
// added with POST /__cuentas.
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
console.log(`Proveedores de identidad de prueba: Google ${google.issuer}, Apple ${apple.issuer}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void Promise.all([google.close(), apple.close()]).finally(() => process.exit(0));
  });
}
