// The guard on requests to addresses someone else chose (src/lib/outbound/special-use.ts): which addresses and names
// count as special-use, and that a request to one never opens a connection (no TCP, no TLS ClientHello), whatever
// spelling or name led there; the unguarded fetch (the operator's COMPANY_PROVIDER_PRIVATE_NETWORK=true) reaches the
// same server.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  guardedFetch,
  guardedFetchWith,
  isLocalName,
  isSpecialUseAddress,
  outboundFetch,
  type ResolvedAddress,
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
    ['2001:db9::1', false],
    ['2003::1', false],
    ['64:ff9b:2::1', false],
    // forms that carry a private IPv4 address or reach a site: IPv4-compatible ([::127.0.0.1] is ::7f00:1), 6to4,
    // NAT64 for local use, site-local, discard-only
    ['::2', true],
    ['::7f00:1', true],
    ['::a00:1', true],
    ['2002:7f00:1::', true],
    ['2002:808:808::1', true],
    ['64:ff9b:1::7f00:1', true],
    ['64:ff9b:1:ffff::1', true],
    ['fec0::1', true],
    ['feff::1', true],
    ['100::1', true],
    // IPv4-translated (SIIT, ::ffff:0:a.b.c.d), Teredo (2001::/32) and the rest of the IETF's 2001::/23
    ['::ffff:0:127.0.0.1', true],
    ['::ffff:0:7f00:1', true],
    ['::ffff:0:808:808', true],
    ['2001::1', true],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
    ['2001:1::1', true],
    ['2001:1ff:ffff::1', true],
    ['2001:200::1', false],
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

describe('isLocalName', () => {
  for (const [name, local] of [
    ['localhost', true],
    ['localhost.', true],
    ['LOCALHOST', true],
    ['api.localhost', true],
    ['api.localhost.', true],
    ['localhost.example.com', false],
    ['mylocalhost', false],
    ['login.example.com', false],
  ] as const) {
    it(`${name} → ${local ? 'local' : 'not local'}`, () => assert.equal(isLocalName(name), local));
  }
});

describe('the guarded fetch', () => {
  // A bare TCP listener: it counts connections, so "nothing was sent" means no TCP connection and no TLS ClientHello,
  // not only no HTTP request.
  let listener: NetServer;
  let port: number;
  let connections = 0;
  let http: Server;
  let httpPort: number;
  const received: string[] = [];
  before(async () => {
    listener = createNetServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    http = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.setHeader('content-type', 'application/json');
      response.end('{"issuer":"x"}');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    httpPort = (http.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => listener.close(resolve));
    await new Promise((resolve) => http.close(resolve));
  });

  /** The refusal as fetch gives it: a TypeError whose cause is the guard's; no connection reached the listener. */
  const cut = async (request: Promise<Response>) => {
    const before = connections;
    const error = await request.then(
      () => assert.fail('the request went through'),
      (failure: unknown) => failure,
    );
    assert.ok(refusedSpecialUse(error), String(error));
    assert.equal((error as { cause?: { code?: string } }).cause?.code, 'ERR_SPECIAL_USE_ADDRESS');
    assert.equal(connections, before, 'a connection reached the listener');
  };

  it('a listener on 127.0.0.1 gets no connection: http, https (no TLS ClientHello) and a POST with a body', async () => {
    await cut(guardedFetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`));
    await cut(guardedFetch(`https://127.0.0.1:${port}/.well-known/openid-configuration`));
    await cut(guardedFetch(`https://127.0.0.1:${port}/token`, { method: 'POST', body: 'code=x&client_secret=y' }));
    await cut(outboundFetch(false)(`https://127.0.0.1:${port}/token`));
    assert.equal(connections, 0);
  });

  it('the spellings of loopback the blocklist must catch: local names, IPv4-compatible, mapped, 6to4, NAT64', async () => {
    for (const host of [
      'localhost',
      'localhost.',
      'portal.localhost',
      '[::1]',
      '[::127.0.0.1]',
      '[::ffff:127.0.0.1]',
      '[2002:7f00:1::]',
      '[64:ff9b:1::7f00:1]',
      '[64:ff9b::127.0.0.1]',
      '0x7f.1',
      '2130706433',
    ]) {
      await cut(guardedFetch(`https://${host}:${port}/`));
    }
    assert.equal(connections, 0);
  });

  it('a name is judged by every address it resolves to, before connecting: one private address refuses it', async () => {
    const asked: string[] = [];
    const answers: Record<string, ResolvedAddress[]> = {
      'login.proveedor-publico.example': [{ address: '127.0.0.1', family: 4 }],
      'mixto.proveedor-publico.example': [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
      'v6.proveedor-publico.example': [{ address: '::ffff:7f00:1', family: 6 }],
    };
    const guarded = guardedFetchWith(async (name) => {
      asked.push(name);
      return answers[name] ?? [];
    });
    try {
      for (const name of Object.keys(answers)) await cut(guarded(`https://${name}:${port}/`));
    } finally {
      await guarded.close();
    }
    assert.deepEqual(asked, Object.keys(answers));
    assert.equal(connections, 0);
  });

  it('lifted (COMPANY_PROVIDER_PRIVATE_NETWORK=true), the same request reaches the server', async () => {
    received.length = 0;
    const answer = await outboundFetch(true)(`http://127.0.0.1:${httpPort}/.well-known/openid-configuration`);
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { issuer: 'x' });
    assert.deepEqual(received, ['GET /.well-known/openid-configuration']);
  });

  it('a name that resolves to nothing is an ordinary network failure, not the guard', async () => {
    const guarded = guardedFetchWith(async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nadie.example'), { code: 'ENOTFOUND' });
    });
    try {
      const error = await guarded('https://nadie.example/').catch((failure: unknown) => failure);
      assert.ok(error instanceof TypeError);
      assert.equal(refusedSpecialUse(error), false);
    } finally {
      await guarded.close();
    }
  });
});
