// The address /dispositivo shows for a device is the person's only defence against a code a phisher passed on: it is
// the address the API's own limits read for that request (TRUST_PROXY), never an X-Forwarded-For entry the device
// wrote itself, whether the proxies are trusted by count, by address list, or not at all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Config } from '../src/config.js';
import { adminEmail, adminPassword, forEachBackend, login } from './helpers/app.js';
import { registerClient, startOidcApi } from './helpers/oidc.js';

/** The address the person is shown for a device that asked through `trustProxy`, sending `forwardedFor`. */
async function shownAddress(
  backend: Parameters<typeof startOidcApi>[0],
  trustProxy: Config['trustProxy'],
  forwardedFor: string,
) {
  const api = await startOidcApi(backend, { trustProxy });
  try {
    const client = await registerClient(api.app, { nombre: 'Quiosco', publico: true, dispositivos: true });
    // Sent over a real connection from loopback, as the proxy in front of the API would.
    const started = await fetch(`${api.issuer}/oidc/device/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
      body: new URLSearchParams({ client_id: client.clientId, scope: 'openid' }),
    });
    assert.equal(started.status, 200);
    const { user_code: userCode } = (await started.json()) as { user_code: string };
    const seen = await api.app.inject({
      method: 'POST',
      url: '/oidc/dispositivo/consultar',
      payload: { codigo: userCode },
      headers: { authorization: `Bearer ${await login(api.app, adminEmail, adminPassword)}` },
    });
    assert.equal(seen.statusCode, 200, seen.body);
    return seen.json().dispositivo.ip as string;
  } finally {
    await api.close();
  }
}

forEachBackend((backend) => {
  describe('the address a device asked from, as /dispositivo shows it', () => {
    it('proxies trusted by address: the entry the first trusted proxy wrote, not the one the device forged', async () => {
      // The device wrote 192.0.2.7 itself; the edge balancer (198.51.100.9) appended the device's real address, and
      // the inner proxy on loopback the balancer's.
      const shown = await shownAddress(
        backend,
        ['127.0.0.1/8', '198.51.100.0/24'],
        '192.0.2.7, 203.0.113.66, 198.51.100.9',
      );
      assert.equal(shown, '203.0.113.66');
    });

    it('a connection from an address the list does not name: its own address, whatever it forwards', async () => {
      assert.equal(await shownAddress(backend, ['10.0.0.0/8'], '203.0.113.66'), '127.0.0.1');
    });

    it('proxies trusted by count: the address the one proxy saw, not one the device wrote', async () => {
      assert.equal(await shownAddress(backend, 1, '203.0.113.66, 198.51.100.9'), '198.51.100.9');
    });

    it('no proxy trusted: the connection’s own address, X-Forwarded-For ignored', async () => {
      assert.equal(await shownAddress(backend, false, '203.0.113.66'), '127.0.0.1');
    });
  });
});
