// The guard on requests to addresses someone else chose (src/lib/outbound/special-use.ts): which peers count as
// special-use, and that a connection to one is cut at connect time, before the request reaches the server, whatever
// name led there; the unguarded fetch (the operator's COMPANY_PROVIDER_PRIVATE_NETWORK=true) reaches the same server.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  guardedDispatcher,
  guardedFetch,
  isSpecialUseAddress,
  outboundFetch,
  refusedSpecialUse,
} from '../src/lib/outbound/special-use.js';

describe('isSpecialUseAddress', () => {
  const table: [string, boolean][] = [
    // IPv4 special-use blocks, at their edges
    ['0.0.0.0', true],
    ['0.255.255.255', true],
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['169.254.169.254', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.0.0.8', true],
    ['192.0.2.1', true],
    ['192.168.1.1', true],
    ['198.18.0.1', true],
    ['198.19.255.255', true],
    ['198.51.100.7', true],
    ['203.0.113.9', true],
    ['224.0.0.1', true],
    ['239.255.255.250', true],
    ['240.0.0.1', true],
    ['255.255.255.255', true],
    // IPv4 public, beside those blocks
    ['1.1.1.1', false],
    ['8.8.8.8', false],
    ['9.255.255.255', false],
    ['11.0.0.1', false],
    ['100.63.255.255', false],
    ['100.128.0.0', false],
    ['126.255.255.255', false],
    ['128.0.0.1', false],
    ['169.253.255.255', false],
    ['172.15.255.255', false],
    ['172.32.0.0', false],
    ['192.0.1.1', false],
    ['192.0.3.1', false],
    ['192.167.255.255', false],
    ['192.169.0.0', false],
    ['198.17.255.255', false],
    ['198.20.0.0', false],
    ['198.51.101.1', false],
    ['203.0.114.1', false],
    ['223.255.255.255', false],
    ['20.190.160.1', false],
    // IPv6
    ['::', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['fc00::1', true],
    ['fd12:3456:789a::1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['febf:ffff::1', true],
    ['ff02::1', true],
    ['2001:db8::1', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::808:808', true],
    ['2001:4860:4860::8888', false],
    ['2606:4700:4700::1111', false],
    ['fec0::1', false],
    ['2001:db9::1', false],
    ['::2', false],
    // IPv4-mapped IPv6: judged by the IPv4 part, in either spelling
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::FFFF:10.1.2.3', true],
    ['::ffff:169.254.169.254', true],
    ['0:0:0:0:0:ffff:c0a8:101', true],
    ['::ffff:8.8.8.8', false],
    ['::ffff:808:808', false],
    // not an address: refused
    ['', true],
    ['localhost', true],
    ['999.1.1.1', true],
  ];
  for (const [ip, special] of table) {
    it(`${ip || '(vacía)'} → ${special ? 'special-use' : 'public'}`, () => {
      assert.equal(isSpecialUseAddress(ip), special);
    });
  }
});

describe('the guarded fetch', () => {
  let server: Server;
  let port: number;
  const received: string[] = [];
  before(async () => {
    server = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.setHeader('content-type', 'application/json');
      response.end('{"issuer":"x"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  /** The refusal as fetch gives it: a TypeError whose cause is the guard's. */
  const cut = async (request: Promise<Response>) => {
    const error = await request.then(
      () => assert.fail('the request went through'),
      (failure: unknown) => failure,
    );
    assert.ok(refusedSpecialUse(error), String(error));
    assert.equal((error as { cause?: { code?: string } }).cause?.code, 'ERR_SPECIAL_USE_ADDRESS');
  };

  it('a listening server on 127.0.0.1 gets nothing: GET and a POST with a body are cut', async () => {
    received.length = 0;
    await cut(guardedFetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`));
    await cut(guardedFetch(`http://127.0.0.1:${port}/token`, { method: 'POST', body: 'code=x&client_secret=y' }));
    await cut(outboundFetch(false)(`http://127.0.0.1:${port}/token`));
    assert.deepEqual(received, []);
  });

  it('a name that resolves to loopback (localhost) is judged by where it connected', async () => {
    received.length = 0;
    await cut(guardedFetch(`http://localhost:${port}/`));
    assert.deepEqual(received, []);
  });

  it('a public-looking name answered with 127.0.0.1 at connect time (DNS rebinding) is cut, not its name', async () => {
    received.length = 0;
    // The resolver answers loopback for the name: what the guard sees is only the connected socket's peer.
    const lookup = (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4);
    const dispatcher = guardedDispatcher({ connect: { lookup } });
    try {
      const request = fetch(`http://login.proveedor-publico.example:${port}/`, { dispatcher } as RequestInit);
      await cut(request);
    } finally {
      await dispatcher.close();
    }
    assert.deepEqual(received, []);
  });

  it('lifted (COMPANY_PROVIDER_PRIVATE_NETWORK=true), the same request reaches the server', async () => {
    received.length = 0;
    const answer = await outboundFetch(true)(`http://127.0.0.1:${port}/.well-known/openid-configuration`);
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { issuer: 'x' });
    assert.deepEqual(received, ['GET /.well-known/openid-configuration']);
  });

  it('a connection that never opened (nobody listening) is an ordinary network failure, not the guard', async () => {
    const error = await guardedFetch('http://127.0.0.1:1/').catch((failure: unknown) => failure);
    assert.ok(error instanceof TypeError);
    assert.equal(refusedSpecialUse(error), false);
  });
});
