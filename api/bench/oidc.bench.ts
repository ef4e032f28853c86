// The OpenID Connect provider's endpoints against the bare Fastify route measured in the same run: the token endpoint
// (authorization code and refresh grants), userinfo and introspection for an offline token and a session-bound one
// (docs/decisions/0055, 0084). Refresh grants rotate, so each connection follows its own chain of refresh tokens;
// codes are single use, so they are made first. Beside the code grant, the SAML identity provider's answer to a partner
// app (docs/decisions/0100): a pending AuthnRequest continued with the person's session and its signed Response
// served on the one-time page, the SAML counterpart of a code redeemed for tokens.
import autocannon from 'autocannon';
import { TestBrowser } from '../test/helpers/oidc.js';
import { partner, redirectQuery } from '../test/helpers/saml-partner.js';
import { createBenchClient } from './oidc-client.js';
import { startBenchServer } from './spawn-server.js';

const seconds = Number(process.env.BENCH_SECONDS || 4);
const adminEmail = 'bench@portal.local';
const adminPassword = 'clave-del-benchmark';
const chains = 8;
/** Codes redeemed (and SAML answers made) in their measures: at least one per chain. */
const codes = Math.max(chains, Number(process.env.BENCH_CODES || 80));

const server = await startBenchServer({
  ADMIN_EMAIL: adminEmail,
  ADMIN_PASSWORD: adminPassword,
  ADMIN_SECOND_FACTOR: 'optional',
});
const { api, bare } = server;

const json = { 'content-type': 'application/json' };
const format = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1));
const percent = (part: number, whole: number) => `${Math.round((part / whole) * 100)} % of the bare route`;
const quantile = (values: number[], q: number) =>
  values.length === 0
    ? 0
    : ([...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0);

async function load(options: autocannon.Options): Promise<{ perSecond: number; p99: number }> {
  const result = await autocannon({ duration: seconds, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${options.url}: ${result.non2xx} respuestas no 2xx y ${result.errors} errores`);
  }
  return { perSecond: result.requests.average, p99: result.latency.p99 };
}

const rows: { what: string; perSecond: number; p99: number; relative: string }[] = [];
try {
  const token = (
    (await (
      await fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: adminEmail, password: adminPassword }),
      })
    ).json()) as { access_token: string }
  ).access_token;
  const admin = { authorization: `Bearer ${token}` };
  // A PostgreSQL named by BENCH_DATABASE_URL keeps the client of an earlier run, and app 1 takes one client only.
  const { data: earlier } = (await (await fetch(`${api}/admin/clientes-oidc`, { headers: admin })).json()) as {
    data: { clientId: string; nombre: string }[];
  };
  for (const client of earlier.filter((client) => client.nombre === 'Benchmark')) {
    const deleted = await fetch(`${api}/admin/clientes-oidc/${client.clientId}`, { method: 'DELETE', headers: admin });
    if (deleted.status !== 204) throw new Error(`earlier client: ${deleted.status} ${await deleted.text()}`);
  }
  const client = await createBenchClient(api, token);
  const { form, newCode, redeem } = client;

  const floor = async (connections: number) => (await load({ url: `${bare}/bare`, connections })).perSecond;

  // Authorization code grant: codes made first, by `chains` browsers at once (a code lives 60 s), then redeemed
  // `chains` at a time.
  const browsers = Array.from({ length: chains }, () => {
    const browser = new TestBrowser(api);
    browser.portalToken = token;
    return browser;
  });
  const ready = (
    await Promise.all(
      browsers.map(async (browser) => {
        const made = [];
        for (let i = 0; i < codes / chains; i++) made.push(await newCode(browser));
        return made;
      }),
    )
  ).flat();
  const before = await floor(chains);
  const latencies: number[] = [];
  const started = performance.now();
  const queue = [...ready];
  const chainTokens: { refresh_token: string }[] = [];
  await Promise.all(
    Array.from({ length: chains }, async () => {
      for (let next = queue.pop(); next; next = queue.pop()) {
        const at = performance.now();
        chainTokens.push(await redeem(next));
        latencies.push(performance.now() - at);
      }
    }),
  );
  const codeRate = codes / ((performance.now() - started) / 1000);
  rows.push({
    what: `POST /oidc/token (authorization_code), ${chains} in flight`,
    perSecond: codeRate,
    p99: Math.round(quantile(latencies, 0.99)),
    relative: percent(codeRate, (before + (await floor(chains))) / 2),
  });

  // SAML responses: the pending requests made first (one AuthnRequest each by the Redirect binding), then each
  // continued with the administrator's session and its page (the signed Response, RSA-SHA256) fetched, `chains` at a
  // time. The app's consent is given once, before.
  const samlPartner = await partner('benchmark');
  const { data: earlierSaml } = (await (await fetch(`${api}/admin/aplicaciones-saml`, { headers: admin })).json()) as {
    data: { id: number; entityId: string }[];
  };
  for (const found of earlierSaml.filter((item) => item.entityId === samlPartner.entityId))
    await fetch(`${api}/admin/aplicaciones-saml/${found.id}`, { method: 'DELETE', headers: admin });
  const registered = await fetch(`${api}/admin/aplicaciones-saml`, {
    method: 'POST',
    headers: { ...json, ...admin },
    body: JSON.stringify({ nombre: 'Benchmark SAML', metadata: samlPartner.metadata, appId: 1 }),
  });
  if (registered.status !== 201) throw new Error(`SAML app: ${registered.status} ${await registered.text()}`);
  const pendingSaml = async () => {
    const answer = await fetch(`${api}/saml/idp/sso?${redirectQuery(samlPartner).query}`, { redirect: 'manual' });
    const solicitud = new URL(answer.headers.get('location') ?? '', 'http://x').searchParams.get('solicitud');
    if (answer.status !== 303 || !solicitud) throw new Error(`SAML request: ${answer.status}`);
    return solicitud;
  };
  const answerSaml = async (solicitud: string, permitir = false) => {
    const continued = await fetch(`${api}/saml/idp/solicitudes/${solicitud}/continuar`, {
      method: 'POST',
      headers: { ...json, ...admin },
      body: JSON.stringify(permitir ? { permitir: true } : {}),
    });
    if (continued.status !== 200) throw new Error(`SAML continue: ${continued.status} ${await continued.text()}`);
    const page = await fetch(((await continued.json()) as { redirectTo: string }).redirectTo);
    const body = await page.text();
    if (page.status !== 200 || !body.includes('SAMLResponse')) throw new Error(`SAML page: ${page.status}`);
  };
  await answerSaml(await pendingSaml(), true);
  const samlQueue: string[] = [];
  for (let i = 0; i < codes; i++) samlQueue.push(await pendingSaml());
  const samlFloor = await floor(chains);
  const samlLatencies: number[] = [];
  const samlStarted = performance.now();
  await Promise.all(
    Array.from({ length: chains }, async () => {
      for (let next = samlQueue.pop(); next; next = samlQueue.pop()) {
        const at = performance.now();
        await answerSaml(next);
        samlLatencies.push(performance.now() - at);
      }
    }),
  );
  const samlRate = codes / ((performance.now() - samlStarted) / 1000);
  rows.push({
    what: `SAML Response (continue + signed page), ${chains} in flight`,
    perSecond: samlRate,
    p99: Math.round(quantile(samlLatencies, 0.99)),
    relative: percent(samlRate, (samlFloor + (await floor(chains))) / 2),
  });

  // Refresh grant: each of `chains` connections follows its own chain (every answer's refresh token is the next).
  const refreshLatencies: number[] = [];
  let refreshed = 0;
  const refreshFloor = await floor(chains);
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    chainTokens.slice(0, chains).map(async (first) => {
      let current = first.refresh_token;
      while (Date.now() < end) {
        const at = performance.now();
        const response = await fetch(`${api}/oidc/token`, {
          method: 'POST',
          headers: form,
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: current }),
        });
        if (response.status !== 200) throw new Error(`refresh: ${response.status} ${await response.text()}`);
        current = ((await response.json()) as { refresh_token: string }).refresh_token;
        refreshLatencies.push(performance.now() - at);
        refreshed += 1;
      }
    }),
  );
  const refreshRate = refreshed / seconds;
  rows.push({
    what: `POST /oidc/token (refresh_token, rotated), ${chains} chains`,
    perSecond: refreshRate,
    p99: Math.round(quantile(refreshLatencies, 0.99)),
    relative: percent(refreshRate, (refreshFloor + (await floor(chains))) / 2),
  });

  // Userinfo and introspection with one offline access token and one bound to the provider session, between
  // measures of the bare route.
  const accessToken = (await redeem(await newCode(browsers[0] as TestBrowser))).access_token;
  const boundToken = (await redeem(await newCode(browsers[1] as TestBrowser, false))).access_token;
  const kinds = [
    ['offline token', accessToken],
    ['session-bound token', boundToken],
  ] as const;
  for (const connections of [1, 50]) {
    const endpoints: { what: string; options: autocannon.Options }[] = kinds.flatMap(([kind, value]) => [
      {
        what: `GET /oidc/me (userinfo), ${kind}`,
        options: { url: `${api}/oidc/me`, headers: { authorization: `Bearer ${value}` } },
      },
      {
        what: `POST /oidc/token/introspection, ${kind}`,
        options: {
          url: `${api}/oidc/token/introspection`,
          method: 'POST',
          headers: form,
          body: new URLSearchParams({ token: value }).toString(),
        },
      },
    ]);
    const floors = [await floor(connections)];
    for (const endpoint of endpoints) {
      const measured = await load({ ...endpoint.options, connections });
      floors.push(await floor(connections));
      rows.push({
        what: `${endpoint.what}, ${connections} conn.`,
        ...measured,
        relative: percent(measured.perSecond, ((floors.at(-2) ?? 0) + (floors.at(-1) ?? 0)) / 2),
      });
    }
    rows.push({
      what: `bare Fastify route, ${connections} conn. (mean of ${floors.length})`,
      perSecond: floors.reduce((sum, value) => sum + value, 0) / floors.length,
      p99: 0,
      relative: '',
    });
  }
} finally {
  await server.stop();
}

console.log(`OpenID Connect endpoints, ${seconds} s each, on 127.0.0.1 (load generator on the same machine)\n`);
console.log('| measure | per second | p99 (ms) | relative |');
console.log('|---|---:|---:|---|');
for (const row of rows) console.log(`| ${row.what} | ${format(row.perSecond)} | ${row.p99 || '—'} | ${row.relative} |`);
