// Where `npm start` and `npm run dev` say the portal is, and what the API and the browser are told: one address,
// localhost, where every feature works (browsers refuse an IP address for passkeys), unless the environment says
// otherwise.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiEnvironment, corsOrigins, publicHostName, readLayout, runtimeConfig } from '../lib/parts.mjs';

test('by default every part is printed and configured at localhost, while listening on 127.0.0.1', () => {
  const layout = readLayout({});
  assert.equal(layout.bind, '127.0.0.1');
  assert.equal(layout.host.url, 'http://localhost:8080');
  assert.equal(layout.api.url, 'http://localhost:3000');
  for (const remote of layout.remotes) {
    assert.equal(remote.origin, `http://localhost:${remote.port}`);
    assert.equal(remote.manifestUrl, `http://localhost:${remote.port}/mf-manifest.json`);
  }
  const config = runtimeConfig(layout, {});
  assert.equal(config.apiBaseUrl, 'http://localhost:3000');
  for (const url of Object.values(config.remotes)) assert.match(url, /^http:\/\/localhost:\d+\/mf-manifest\.json$/);
  const api = apiEnvironment(layout, {});
  assert.equal(api.PORTAL_URL, 'http://localhost:8080');
  assert.equal(api.API_PUBLIC_URL, 'http://localhost:3000');
  assert.equal(api.HOST, '127.0.0.1');
});

test('the API accepts the pages at localhost and at 127.0.0.1, where they still work (passkeys aside)', () => {
  const origins = corsOrigins(readLayout({}), {});
  for (const origin of [
    'http://localhost:8080',
    'http://127.0.0.1:8080',
    'http://localhost:3001',
    'http://127.0.0.1:3001',
  ])
    assert.ok(origins.includes(origin), origin);
});

test('a loopback or every-address bind is printed as localhost; another address as it is', () => {
  for (const bind of ['127.0.0.1', '::1', '[::1]', 'localhost', '0.0.0.0', '::'])
    assert.equal(publicHostName(bind), 'localhost');
  assert.equal(publicHostName('192.168.1.20'), '192.168.1.20');
  assert.equal(publicHostName('fd00::7'), '[fd00::7]');
  assert.equal(readLayout({ BIND_HOST: '0.0.0.0' }).host.url, 'http://localhost:8080');
  assert.equal(readLayout({ BIND_HOST: '192.168.1.20', HOST_PORT: '9000' }).host.url, 'http://192.168.1.20:9000');
});

test('the overrides still win: PUBLIC_PORTAL_URL, PUBLIC_API_URL, a remote URL, and the API’s own PORTAL_URL', () => {
  const env = {
    PUBLIC_PORTAL_URL: 'https://portal.example.com',
    PUBLIC_API_URL: 'https://api.portal.example.com/',
    REMOTE_AUTH_URL: 'https://cdn.example.com/auth/mf-manifest.json',
  };
  const layout = readLayout(env);
  assert.equal(layout.host.url, 'https://portal.example.com');
  assert.equal(layout.api.url, 'https://api.portal.example.com');
  assert.equal(runtimeConfig(layout, env).remotes.auth, 'https://cdn.example.com/auth/mf-manifest.json');
  assert.equal(apiEnvironment(layout, env).PORTAL_URL, 'https://portal.example.com');
  assert.equal(
    apiEnvironment(layout, { ...env, PORTAL_URL: 'https://otro.example.com' }).PORTAL_URL,
    'https://otro.example.com',
  );
});

test('the support address reaches the browser only when SUPPORT_EMAIL sets one: empty otherwise, never a made-up one', () => {
  const layout = readLayout({});
  assert.equal(runtimeConfig(layout, {}).links?.supportEmail, '');
  assert.equal(runtimeConfig(layout, { SUPPORT_EMAIL: '' }).links?.supportEmail, '');
  assert.equal(runtimeConfig(layout, { SUPPORT_EMAIL: 'soporte@acme.pe' }).links?.supportEmail, 'soporte@acme.pe');
});
