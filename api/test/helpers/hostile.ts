import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** One route as Fastify routes it: `:name` path params, `*` for a wildcard. */
export interface RouteKey {
  method: string;
  url: string;
}

/** Every (method, url) the app answers, read from `printRoutes`, so a route added later is listed without edits. */
export function listRoutes(app: FastifyInstance): RouteKey[] {
  const routes: RouteKey[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const url = (prefixes[depth - 1] ?? '') + match[2]!;
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}

// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema of the OpenAPI document, walked key by key whatever its shape.
export type Schema = Record<string, any>;

/** What the OpenAPI document (`app.swagger()`) says a route takes; undefined for routes it does not describe. */
export interface Operation {
  path: Record<string, Schema>;
  query: Record<string, Schema>;
  body: Schema | undefined;
}

export function operationOf(spec: Schema, route: RouteKey): Operation | undefined {
  const openApiPath = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const operation = spec.paths?.[openApiPath]?.[route.method.toLowerCase()];
  if (!operation) return undefined;
  const path: Record<string, Schema> = {};
  const query: Record<string, Schema> = {};
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'path') path[parameter.name] = parameter.schema;
    if (parameter.in === 'query') query[parameter.name] = parameter.schema;
  }
  return { path, query, body: operation.requestBody?.content?.['application/json']?.schema };
}

/** Ids and emails of the accounts under test: generators aim at them, since that is where a mix-up would hurt. */
export interface Targets {
  ids: number[];
  emails: string[];
}

const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'null',
  'undefined',
  'NaN',
  '-NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '0x1F',
  '1.5',
  ' 1',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  "' OR '1'='1",
  '1); DROP TABLE users;--',
  '%',
  '_',
  '\\',
  '%_\\%',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  'a@b.c\r\nBcc: x@y.z',
  'x@y.z\nSubject: hola',
  'ñandú@ejemplo.es',
  '😀'.repeat(40),
  '\u202eevil',
  '\ud800',
  '\uffff',
  'javascript:alert(1)',
  'https://evil.test/',
  '/ruta',
  'price_suite_mensual',
  '123456',
  '000000',
  '2026-13-45T99:99:99Z',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00.000Z',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose.
  '${7*7}',
  '{{7*7}}',
];

/** Long text well inside the 100 KB body limit, and some just over it once JSON-encoded. */
const hugeString = fc
  .tuple(fc.constantFrom('x', 'ñ', '😀', '\u0000', ' ', '%'), fc.integer({ min: 300, max: 24_000 }))
  .map(([char, times]) => char.repeat(times));

function hostileString(targets: Targets): fc.Arbitrary<string> {
  const aimed = targets.emails.flatMap((email) => [
    email,
    ` ${email.toUpperCase()} `,
    `${email}\r\n`,
    `%${email.slice(2)}`,
  ]);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...hostileStrings, ...aimed) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: hugeString },
  );
}

function hostileNumber(targets: Targets): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(
      ...targets.ids,
      0,
      -1,
      1,
      2,
      3,
      2 ** 31 - 1,
      2 ** 31,
      -(2 ** 31),
      Number.MAX_SAFE_INTEGER,
      1.5,
      -0,
      1e308,
    ),
    fc.integer(),
    fc.double(),
  );
}

const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '$where',
    '',
    'a.b',
    'userId',
    'role',
  ),
  fc.string({ maxLength: 12 }),
);

/** Any JSON value, nested, with prototype-pollution keys as own properties (`Object.fromEntries`, not a literal). */
function hostileJson(targets: Targets): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(hostileString(targets), hostileNumber(targets), fc.boolean(), fc.constant(null));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
    ),
  })).value;
}

/** A value that fits `schema` often enough to get past validation into the handler, else a hostile one. */
function valueFor(schema: Schema | undefined, targets: Targets): fc.Arbitrary<unknown> {
  const hostile = hostileJson(targets);
  const fitting = fittingValue(schema, targets);
  return fitting ? fc.oneof({ weight: 4, arbitrary: fitting }, { weight: 1, arbitrary: hostile }) : hostile;
}

function fittingValue(schema: Schema | undefined, targets: Targets): fc.Arbitrary<unknown> | undefined {
  if (!schema) return undefined;
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...(choices as Schema[]).map((choice) => valueFor(choice, targets)));
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  switch (schema.type) {
    case 'string': {
      const options: fc.Arbitrary<string>[] = [hostileString(targets)];
      if (schema.format === 'date-time')
        options.push(fc.date({ noInvalidDate: true }).map((date) => date.toISOString()));
      if (schema.format === 'email' || /@/.test(schema.pattern ?? '')) options.push(fc.constantFrom(...targets.emails));
      if (schema.pattern) options.push(...matching(schema));
      if (!schema.pattern && !schema.format) {
        options.push(fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 60, 60) }));
      }
      // Fitting text with one hostile character added, which only a check beyond the schema would refuse.
      const poisoned = fc
        .tuple(fc.oneof(...options), fc.constantFrom('\u0000', '\r\n', '\u202e', '\ud800', '%00', "'"))
        .map(([text, poison]) => `${text}${poison}`);
      return fc.oneof({ weight: 3, arbitrary: fc.oneof(...options) }, { weight: 1, arbitrary: poisoned });
    }
    case 'integer':
    case 'number': {
      const min = Math.max(schema.minimum ?? -(2 ** 31), -(2 ** 31));
      const max = Math.min(schema.maximum ?? 2 ** 31 - 1, 2 ** 31 - 1);
      const small = fc.integer({ min: Math.max(min, 0), max: Math.min(max, 20) });
      return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...targets.ids) }, small, fc.integer({ min, max }));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items, targets), { maxLength: 5 });
    case 'object':
      return objectFor(schema.properties ?? {}, targets, schema.required);
    default:
      return undefined;
  }
}

/** Texts the schema's pattern and lengths take; none when fast-check cannot read the pattern. */
function matching(schema: Schema): fc.Arbitrary<string>[] {
  const pattern = new RegExp(schema.pattern);
  const fits = (text: string) =>
    pattern.test(text) && text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? 1000);
  try {
    // fast-check cannot generate from lookaheads: it generates without them and keeps what the whole pattern takes.
    return [fc.stringMatching(new RegExp(schema.pattern.replace(/\(\?[=!][^)]*\)/g, ''))).filter(fits)];
  } catch {
    return [];
  }
}

/** The known fields (mostly the required ones at least), each fitting or hostile, sometimes with extra hostile keys. */
function objectFor(
  properties: Record<string, Schema>,
  targets: Targets,
  required: string[] = [],
): fc.Arbitrary<Record<string, unknown>> {
  const known = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [name, valueFor(schema, targets)]),
  );
  const fields = fc.oneof(
    { weight: 4, arbitrary: fc.record(known, { requiredKeys: required.filter((name) => name in known) }) },
    { weight: 1, arbitrary: fc.record(known, { requiredKeys: [] }) },
  );
  const extra = fc.oneof(
    { weight: 4, arbitrary: fc.constant([] as [string, unknown][]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(hostileKey, hostileJson(targets)), { minLength: 1, maxLength: 2 }) },
  );
  return fc
    .tuple(fields, extra)
    .map(([values, entries]) => Object.fromEntries([...Object.entries(values), ...entries]));
}

/** A request as `app.inject` takes it, minus the caller's authorization. */
export interface HostileRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const rawBodies = [
  '',
  '{',
  '{"a":',
  'null',
  '[]',
  '"texto"',
  '1',
  'true',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"a":1,"a":2}',
  '\u0000',
  '\ufeff{}',
  '{"email":"a@b.c"}'.repeat(3),
  `[${'['.repeat(3000)}${']'.repeat(3000)}]`,
];
const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'application/json; charset=utf-8',
    'application/JSON',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=latin1',
    'application/xml',
    '*/*',
    '',
  ),
);
const rawQueries = [
  '%',
  '%zz',
  '%00',
  '&&&',
  '=',
  '==1',
  'page[]=1',
  'a[b][c]=1',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  'page=1&page=2',
  `q=${'a'.repeat(5000)}`,
];
const pathSegments = [
  '..',
  '.',
  '%2e%2e',
  '..%2f',
  '%2F',
  'static',
  'index.html',
  'swagger-ui.css',
  'json',
  '%00',
  '~',
  '',
];

function encodedText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate: sent as the UTF-8 a client would send (U+FFFD).
    return [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

/** Path parameters sent as they are: undecodable escapes, traversal, empty. */
const rawParams = ['%', '%zz', '%E0%A4%A', '%C0%AF', '%00', '..', '%2e%2e', '', '%2F', '1%20', '1;', 'a'.repeat(150)];

/** Hostile path params, query string and body for one route, guided by what its schemas declare. */
export function hostileRequest(
  route: RouteKey,
  operation: Operation | undefined,
  targets: Targets,
): fc.Arbitrary<HostileRequest> {
  const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
  const params = fc.record(
    Object.fromEntries(
      names.map((name) => [
        name,
        fc.oneof(
          { weight: 4, arbitrary: valueFor(operation?.path[name], targets).map(encodedText) },
          fc.constantFrom(...rawParams),
        ),
      ]),
    ),
  );
  const wildcard = fc
    .array(fc.oneof(fc.constantFrom(...pathSegments), hostileString(targets).map(encodedText)), { maxLength: 4 })
    .map((segments) => segments.join('/'));
  const query = fc.oneof(
    {
      weight: 4,
      arbitrary: objectFor(operation?.query ?? {}, targets, []).map((fields) =>
        Object.entries(fields)
          .flatMap(([key, value]) =>
            (Array.isArray(value) ? value : [value]).map((item) => `${encodedText(key)}=${encodedText(item)}`),
          )
          .join('&'),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...rawQueries) },
  );
  const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
  const body = hasBody
    ? fc.oneof(
        {
          weight: 6,
          arbitrary: (operation?.body ? valueFor(operation.body, targets) : hostileJson(targets)).map(
            (value) => JSON.stringify(value) ?? 'null',
          ),
        },
        { weight: 1, arbitrary: fc.constantFrom(...rawBodies) },
      )
    : fc.constant(undefined);
  return fc
    .record({ params, wildcard, query, body, type: contentType })
    .map(({ params: values, wildcard: rest, query: search, body: payload, type }) => {
      const filled = route.url
        .replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => values[name] as string)
        .replace('*', rest);
      const path = filled.startsWith('/') ? filled : `/${filled}`;
      const headers: Record<string, string> = {};
      if (payload !== undefined && type) headers['content-type'] = type;
      return { method: route.method, url: search ? `${path}?${search}` : path, headers, payload };
    });
}

/** Authorization headers that no session has: garbage, other schemes, huge, unsigned. */
export const hostileAuthorization = fc.constantFrom(
  undefined,
  'Bearer',
  'Bearer ',
  'Bearer abc.def.ghi',
  'Basic YWRtaW46YWRtaW4=',
  `Bearer ${'a'.repeat(5000)}`,
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
  'bearer null',
  'Bearer \u00ff',
);

/** English words that must never reach a client; a quoted part is the client's own text echoed (a field name). */
const english =
  /\b(must|should|invalid|required|unexpected|error|expected|property|body|missing|not found|failed|allowed)\b/i;
const spanish = /[áéíóúñ¿¡]|\b(no|de|el|la|los|las|un|una|del|es|está|para|por|con)\b/i;

/** Why an error answer is not a Spanish `{ statusCode, message, code? }`, or undefined when it is. */
export function spanishErrorProblem(response: LightMyRequestResponse): string | undefined {
  if (!String(response.headers['content-type']).startsWith('application/json'))
    return `content-type ${response.headers['content-type']}`;
  let body: { statusCode?: unknown; message?: unknown };
  try {
    body = response.json();
  } catch {
    return 'the body is not JSON';
  }
  if (body.statusCode !== response.statusCode) return `statusCode ${String(body.statusCode)} in the body`;
  if (typeof body.message !== 'string' || !body.message.trim()) return 'no message';
  const own = body.message.replace(/'.*'/s, "''");
  if (english.test(own) || !spanish.test(own)) return `message not in Spanish: ${body.message}`;
  return undefined;
}

/** Why the answer lacks a security header every answer must carry, or undefined. */
export function securityHeaderProblem(response: LightMyRequestResponse): string | undefined {
  const headers = response.headers;
  if (headers['x-content-type-options'] !== 'nosniff')
    return `x-content-type-options: ${headers['x-content-type-options']}`;
  if (headers['referrer-policy'] !== 'no-referrer') return `referrer-policy: ${headers['referrer-policy']}`;
  const csp = String(headers['content-security-policy'] ?? '');
  if (!/(^|;)\s*frame-ancestors 'none'\s*(;|$)/.test(csp))
    return `content-security-policy without frame-ancestors 'none': ${csp}`;
  const scripts = /(?:^|;)\s*script-src([^;]*)/.exec(csp)?.[1] ?? '';
  if (/'unsafe-inline'|'unsafe-eval'/.test(scripts)) return `content-security-policy allows inline scripts: ${csp}`;
  return undefined;
}

/**
 * Everything stored about the given accounts, in one query: users, their plans, identities and billing customer,
 * and which of their codes were used. Anyone may have a reset code mailed to any email, and each wrong guess of it
 * is counted on it (the brute-force limit): codes being issued or counted are the design, a code used is not. A
 * plan's `expiry_announced` is left out: the partner events' expiry job (every minute, in the background) sets it on
 * a plan an earlier request let lapse, during whichever request happens to be running then.
 */
export async function accountsSnapshot(app: FastifyInstance, ids: number[]): Promise<unknown> {
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const result = await app.db.execute(sql`select
    (select json_agg(u order by u.id) from users u where u.id in (${list})) as users,
    (select json_agg((to_jsonb(p) - 'expiry_announced') order by p.user_id, p.app_id) from user_plans p
       where p.user_id in (${list})) as plans,
    (select json_agg(json_build_object('user', c.user_id, 'purpose', c.purpose, 'used', c.used_at) order by c.user_id, c.purpose)
       from account_codes c where c.user_id in (${list}) and c.used_at is not null) as used_codes,
    (select json_agg(i order by i.provider, i.subject) from user_identities i where i.user_id in (${list})) as identities,
    (select json_agg(b order by b.user_id) from billing_customers b where b.user_id in (${list})) as billing`);
  return (result as unknown as { rows: unknown[] }).rows[0];
}
