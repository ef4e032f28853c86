// A directory's first full sync with its groups over SCIM 2.0, on PostgreSQL: 10 000 people, then 500 groups of 20
// (each tied by a rule to seats of app 1), as Microsoft Entra ID's initial cycle makes them: people first (a
// `userName eq` GET, then a POST), then for each group a `displayName eq` GET with `excludedAttributes=members`, a
// POST without members, and PATCHes adding its members 50 at a time; 4 requests in flight. The seats must be right at
// the end and the whole sync under a minute. Then a group of 5 000 (its rule ties it to the same app) and one member
// added to it, one request at a time, 200 times: p95 under 50 ms. Last, a group of 5 000 holding seats, and a rule that
// gives its people an app role (`POST /empresas/:id/grupos-directorio` with `rolesApp`): every one holds the role
// when the request answers, in under 5 s. Needs BENCH_DATABASE_URL; without it, it says so and exits 0.
// BENCH_SCIM_PEOPLE changes the 10 000 (the groups stay 20 people each).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { admin, agent, call, domain, entraProvision, percentile, prepare, run, schemaUrl } from './scim-sync.bench.js';
import { startBenchServer } from './spawn-server.js';
import { seededDatabaseUrl } from './seeded.js';

const schema = 'bench_scim_groups';
const people = Number(process.env.BENCH_SCIM_PEOPLE || 10_000);
const groupSize = 20;
const groups = Math.floor(people / groupSize);
const batch = 50;
const bigGroup = Math.min(5_000, people - 200);
const limitSeconds = 60;
const addLimitMs = 50;
const roleLimitSeconds = 5;

/**
 * The processor time (s) PostgreSQL's server processes of this database have used so far: those connected now, read
 * from Linux's /proc (the API's pool keeps its connections through a run); undefined elsewhere.
 */
async function postgresSeconds(sql: pg.Client): Promise<number | undefined> {
  const { rows } = await sql.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  try {
    let ticks = 0;
    for (const { pid } of rows) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / 100;
  } catch {
    return undefined;
  }
}

async function main(url: string) {
  const { token, companyId } = await prepare(url, schema);
  const sql = new pg.Client({ connectionString: schemaUrl(url, schema) });
  await sql.connect();
  // One rule per group, written before the sync (as a company sets its rules up before connecting its directory).
  await sql.query(
    `INSERT INTO company_group_rules (company_id, group_name, app_id)
     SELECT $1, 'Grupo ' || lpad(g::text, 3, '0'), 1 FROM generate_series(0, $2 - 1) g`,
    [companyId, groups],
  );
  await sql.query("INSERT INTO company_group_rules (company_id, group_name, app_id) VALUES ($1, 'Grande', 1)", [
    companyId,
  ]);
  const server = await startBenchServer({
    BENCH_DATABASE_URL: schemaUrl(url, schema),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ADMIN_SECOND_FACTOR: 'optional',
  });
  const { api } = server;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' };
  const send = async (method: string, path: string, body?: unknown) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const answer = await call(
      `${api}/scim/v2${path}`,
      method,
      payload === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(payload)) },
      payload,
    );
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.body}`);
    return answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : {};
  };
  const addMembers = (groupId: string, ids: string[]) =>
    send('PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Add', path: 'members', value: ids.map((value) => ({ value })) }],
    });

  try {
    const ids: string[] = new Array(people);
    // The pool's connections, opened before the clock starts so that their processor time is all counted.
    await send('GET', '/Users?count=0');
    const cpu = () => Promise.all([server.processorSeconds(), postgresSeconds(sql)]);
    const cpuStart = await cpu();
    const started = performance.now();
    const users = await run(people, async (index) => {
      const name = `persona${String(index).padStart(5, '0')}@${domain}`;
      ids[index] = (await entraProvision(api, { authorization: headers.authorization }, name, index)).id;
    });
    const groupRun = await run(groups, async (index) => {
      const displayName = `Grupo ${String(index).padStart(3, '0')}`;
      const filter = encodeURIComponent(`displayName eq "${displayName}"`);
      const found = await send('GET', `/Groups?excludedAttributes=members&filter=${filter}`);
      if (found.totalResults !== 0) throw new Error(`${displayName} found`);
      const created = await send('POST', '/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        externalId: `grupo-${index}`,
        displayName,
        members: [],
      });
      const members = ids.slice(index * groupSize, (index + 1) * groupSize);
      for (let at = 0; at < members.length; at += batch)
        await addMembers(String(created.id), members.slice(at, at + batch));
    });
    const total = (performance.now() - started) / 1000;
    const cpuEnd = await cpu();
    const { rows } = await sql.query<{ seats: number; in_use: number; members: number }>(
      `SELECT (SELECT count(*)::int FROM company_seats WHERE company_id = $1 AND app_id = 1) AS seats,
              (SELECT seats_in_use FROM company_licences WHERE company_id = $1 AND app_id = 1) AS in_use,
              (SELECT count(*)::int FROM company_scim_group_members) AS members`,
      [companyId],
    );
    const counts = rows[0]!;

    // A group of 5 000, then one member added at a time (each a person not yet in it).
    const big = await send('POST', '/Groups', { displayName: 'Grande', members: [] });
    const bigId = String(big.id);
    for (let at = 0; at < bigGroup; at += batch) await addMembers(bigId, ids.slice(at, Math.min(bigGroup, at + batch)));
    const additions = Math.min(200, people - bigGroup);
    // One at a time, as one directory request: its own latency, not the queue behind the group's lock.
    const addTimes: number[] = [];
    for (let index = 0; index < additions; index++) {
      const begun = performance.now();
      await addMembers(bigId, [ids[bigGroup + index]!]);
      addTimes.push(performance.now() - begun);
    }
    const adds = { times: addTimes.sort((a, b) => a - b) };

    // A group of 5 000 people who hold seats already (by their small groups), then a rule giving them a role of app 1.
    const supervisors = await send('POST', '/Groups', { displayName: 'Supervisores', members: [] });
    for (let at = 0; at < bigGroup; at += batch)
      await addMembers(String(supervisors.id), ids.slice(at, Math.min(bigGroup, at + batch)));
    const adminToken = await signIn(api);
    const asAdmin = (method: string, path: string, body: unknown) =>
      fetch(`${api}${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const role = await asAdmin('POST', '/admin/apps/1/roles', { clave: 'supervisor', nombre: 'Supervisor' });
    if (role.status !== 201) throw new Error(`POST /admin/apps/1/roles: ${role.status} ${await role.text()}`);
    const ruleStarted = performance.now();
    const rule = await asAdmin('POST', `/empresas/${companyId}/grupos-directorio`, {
      grupo: 'Supervisores',
      idApp: 1,
      rolesApp: ['supervisor'],
    });
    const ruleSeconds = (performance.now() - ruleStarted) / 1000;
    if (rule.status !== 201) throw new Error(`POST grupos-directorio: ${rule.status} ${await rule.text()}`);
    const { rows: roleRows } = await sql.query<{ holders: number }>(
      "SELECT count(DISTINCT user_id)::int AS holders FROM user_app_roles WHERE app_id = 1 AND clave = 'supervisor'",
    );
    const holders = roleRows[0]!.holders;

    console.log(
      `PostgreSQL, ${people} personas y ${groups} grupos de ${groupSize} (miembros en PATCH de ${batch}), 4 peticiones en vuelo.\n`,
    );
    console.log('| run | total s | per request p50 / p95 ms |');
    console.log('|---|---:|---:|');
    console.log(
      `| people (GET with filter and POST each) | ${users.seconds.toFixed(1)} | ${percentile(users.times, 50).toFixed(2)} / ${percentile(users.times, 95).toFixed(2)} |`,
    );
    console.log(
      `| groups (GET, POST, PATCH of members each) | ${groupRun.seconds.toFixed(1)} | ${percentile(groupRun.times, 50).toFixed(2)} / ${percentile(groupRun.times, 95).toFixed(2)} |`,
    );
    console.log(`| the whole sync | ${total.toFixed(1)} | |`);
    const spent = (index: 0 | 1) =>
      cpuStart[index] === undefined || cpuEnd[index] === undefined
        ? 'unknown'
        : `${(cpuEnd[index] - cpuStart[index]).toFixed(1)} s`;
    console.log(`\nProcessor time of the sync: API server ${spent(0)}, PostgreSQL (its connections) ${spent(1)}.`);
    console.log(
      `| one member added to a group of ${bigGroup} (${additions} times) | | ${percentile(adds.times, 50).toFixed(2)} / ${percentile(adds.times, 95).toFixed(2)} |`,
    );
    console.log(
      `| a rule giving a role of the app to a group of ${bigGroup} (one request) | ${ruleSeconds.toFixed(2)} | |`,
    );
    console.log(
      `\nAl final de la sincronización: ${counts.seats} puestos (en uso ${counts.in_use}), ${counts.members} miembros de grupos.`,
    );
    if (counts.seats !== people || counts.in_use !== people) throw new Error('the seats are not right at the end');
    if (total >= limitSeconds) {
      console.error(`La sincronización tardó ${total.toFixed(1)} s: más de ${limitSeconds} s.`);
      process.exitCode = 1;
    }
    if (holders !== bigGroup) throw new Error(`${holders} people hold the role, not ${bigGroup}`);
    if (ruleSeconds >= roleLimitSeconds) {
      console.error(
        `Dar un rol a ${bigGroup} personas tardó ${ruleSeconds.toFixed(2)} s: más de ${roleLimitSeconds} s.`,
      );
      process.exitCode = 1;
    }
    if (percentile(adds.times, 95) >= addLimitMs) {
      console.error(`Añadir un miembro a un grupo de ${bigGroup} tardó más de ${addLimitMs} ms (p95).`);
      process.exitCode = 1;
    }
  } finally {
    agent.destroy();
    await sql.end();
    await server.stop();
  }
}

/** The platform administrator's access token. */
async function signIn(api: string): Promise<string> {
  const response = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`POST /auth/login: ${response.status}`);
  return body.access_token;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = seededDatabaseUrl('scim-groups.bench.ts');
  if (!url) process.exit(0);
  await main(url);
}
