// SCIM 2.0 (RFC 7643/7644) under /scim/v2: a company's directory (Microsoft Entra ID, Okta…) provisions and
// deprovisions its people with the company's bearer token. Its own body parser (application/scim+json and
// application/json) and its own error shaping: every refusal here is SCIM's error body, never the API's usual one.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ScimError, scimErrorBody, scimMessages as M } from '../../domain/companies/scim/errors.js';
import { resourceTypes, schemaDocuments, serviceProviderConfig } from '../../domain/companies/scim/discovery.js';
import {
  createGroup,
  deleteGroup,
  getGroup,
  listGroups,
  patchGroup,
  replaceGroup,
} from '../../domain/companies/scim/group-changes.js';
import { projectAnswer } from '../../domain/companies/scim/projection.js';
import { requestLogOf } from '../../domain/companies/scim/requests.js';
import { tokenMemoryOf } from '../../domain/companies/scim/token-memory.js';
import { authenticateToken, type ScimCaller } from '../../domain/companies/scim/tokens.js';
import { deleteUser, patchUser, replaceUser } from '../../domain/companies/scim/changes.js';
import { createUser } from '../../domain/companies/scim/provision.js';
import { getUser, listUsers } from '../../domain/companies/scim/queries.js';
import { listSchema, maxResults, type Outcome, type ScimScope } from '../../domain/companies/scim/users.js';
import { HttpError, isDatabaseUnavailable } from '../../lib/errors.js';
import { changesNoSessionState } from '../../plugins/app/session-memory.js';

export const scimContentType = 'application/scim+json; charset=utf-8';

/** What a request did, for the company's registro (company_scim_requests). */
interface Trace {
  caller?: ScimCaller;
  detail?: string;
  userName?: string;
}
const traces = new WeakMap<FastifyRequest, Trace>();
const traceOf = (request: FastifyRequest): Trace => {
  let trace = traces.get(request);
  if (!trace) {
    trace = {};
    traces.set(request, trace);
  }
  return trace;
};

const fastifyErrors: Record<string, ScimError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: new ScimError(400, M.invalidJson, 'invalidSyntax'),
  FST_ERR_CTP_EMPTY_JSON_BODY: new ScimError(400, M.emptyBody, 'invalidSyntax'),
  FST_ERR_CTP_BODY_TOO_LARGE: new ScimError(413, M.bodyTooLarge),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: new ScimError(415, M.mediaType),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: new ScimError(400, M.badRequest),
};

/** Any failure as a SCIM error: ours as they are, the framework's in Spanish, the unexpected as a logged 500. */
function asScimError(error: FastifyError | Error, request: FastifyRequest): ScimError {
  if (error instanceof ScimError) return error;
  if (error instanceof HttpError) return new ScimError(error.statusCode, error.message);
  const { code, statusCode } = error as FastifyError;
  const known = code ? fastifyErrors[code] : undefined;
  if (known) return known;
  if (statusCode && statusCode >= 400 && statusCode < 500) return new ScimError(statusCode, M.badRequest);
  if (isDatabaseUnavailable(error) || code === 'FST_ERR_HANDLER_TIMEOUT') {
    request.log.warn({ err: error }, 'scim request unavailable');
    return new ScimError(503, M.unavailable);
  }
  request.log.error({ err: error }, 'request failed');
  return new ScimError(500, M.internal);
}

function sendError(error: ScimError, request: FastifyRequest, reply: FastifyReply) {
  const trace = traceOf(request);
  trace.detail = error.detail;
  if (error.userName) trace.userName ??= error.userName;
  return reply.code(error.status).type(scimContentType).send(scimErrorBody(error));
}

/**
 * A URL Fastify refuses before routing (bad percent-encoding, a parameter too long) under /scim/v2: SCIM's error body
 * too (the app's `frameworkErrors` hands it over; no company is known yet, so nothing is logged).
 */
export function sendScimFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const detail =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'La dirección de la petición es demasiado larga'
      : 'La dirección de la petición no es válida';
  return sendError(new ScimError(status, detail), request, reply);
}

/** The userName a POST or PUT body names, for the registro of a refused one. */
function bodyUserName(body: unknown): string | undefined {
  const value = (body as { userName?: unknown } | null)?.userName;
  return typeof value === 'string' ? value.slice(0, 254) : undefined;
}

/** startIndex and count of a list (RFC 7644 §3.4.2.4): 1-based, count 100 by default and at most maxResults. */
function paging(query: Record<string, unknown>) {
  const number = (name: 'startIndex' | 'count', fallback: number) => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    if (typeof raw !== 'string' || !/^-?[0-9]{1,10}$/.test(raw.trim())) {
      throw new ScimError(400, name === 'startIndex' ? M.startIndex : M.count, 'invalidValue');
    }
    return Number(raw.trim());
  };
  const startIndex = Math.max(1, number('startIndex', 1));
  const count = Math.min(maxResults, Math.max(0, number('count', 100)));
  const filter = query.filter;
  if (filter !== undefined && typeof filter !== 'string')
    throw new ScimError(400, M.filterSyntax('filter'), 'invalidFilter');
  return { startIndex, count, ...(filter ? { filter } : {}) };
}

export default async function scimRoutes(app: FastifyInstance) {
  const baseUrl = `${app.config.apiPublicUrl.replace(/\/+$/, '')}/scim/v2`;

  // Only SCIM's JSON here (RFC 7644 §3.1 names application/scim+json; directories also send application/json).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/scim+json', 'application/json'],
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(new ScimError(400, M.emptyBody, 'invalidSyntax'), undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new ScimError(400, M.invalidJson, 'invalidSyntax'), undefined);
      }
    },
  );
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(asScimError(error, request), request, reply));
  app.setNotFoundHandler((request, reply) => sendError(new ScimError(404, M.notFound), request, reply));

  const scope = (request: FastifyRequest): ScimScope => {
    const caller = traceOf(request).caller;
    if (!caller) throw new ScimError(401, M.noToken);
    return { companyId: caller.companyId, baseUrl };
  };

  const tokens = tokenMemoryOf(app.sessionState);
  /** The company's token: required for Users and Groups; optional for the discovery documents (no company data). */
  const authenticate = (optional: boolean) => async (request: FastifyRequest) => {
    if (optional && request.headers.authorization === undefined) return;
    const caller = await authenticateToken(app.db, request.headers.authorization, request.ip, tokens);
    traceOf(request).caller = caller;
    if (caller.companyStatus !== 'active') throw new ScimError(403, M.companySuspended);
  };
  const discovery = { onRequest: authenticate(true) };
  const users = { onRequest: authenticate(false) };

  // Each request that reached a company goes to its registro (written in batches: domain/companies/scim/requests.ts).
  const log = requestLogOf(app.db, (error) => app.log.warn({ err: error }, 'scim requests not logged'));
  app.addHook('onClose', () => log.flush());
  // At onSend, so the entry is queued before the answer leaves (a registro read right after finds it).
  app.addHook('onSend', (request, reply, payload, done) => {
    const trace = traces.get(request);
    if (!trace?.caller) return done(null, payload);
    log.add({
      companyId: trace.caller.companyId,
      method: request.method,
      path: request.url,
      status: reply.statusCode,
      detail: trace.detail ?? '',
      userName: trace.userName ?? null,
    });
    done(null, payload);
  });

  const answer = <T>(request: FastifyRequest, reply: FastifyReply, outcome: Outcome<T>, status = 200) => {
    const trace = traceOf(request);
    trace.detail = outcome.detail;
    if (outcome.userName) trace.userName = outcome.userName;
    reply.code(status).type(scimContentType);
    if (status === 204) return reply.send();
    return reply.send(
      request.method === 'GET' ? projectAnswer(outcome.result as object, request.query) : outcome.result,
    );
  };
  const plain = (reply: FastifyReply, body: object) => reply.type(scimContentType).send(body);

  app.get('/ServiceProviderConfig', discovery, async (request, reply) => {
    traceOf(request).detail = 'Lectura de la configuración del servicio';
    return plain(reply, serviceProviderConfig(baseUrl));
  });
  const listOf = (resources: object[]) => ({
    schemas: [listSchema],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  });
  app.get('/ResourceTypes', discovery, async (request, reply) => {
    traceOf(request).detail = 'Lectura de los tipos de recurso';
    return plain(reply, listOf(Object.values(resourceTypes(baseUrl))));
  });
  app.get<{ Params: { name: string } }>('/ResourceTypes/:name', discovery, async (request, reply) => {
    const type = Object.hasOwn(resourceTypes(baseUrl), request.params.name)
      ? resourceTypes(baseUrl)[request.params.name]
      : undefined;
    if (!type) throw new ScimError(404, M.resourceTypeNotFound);
    traceOf(request).detail = `Lectura del tipo de recurso ${request.params.name}`;
    return plain(reply, type);
  });
  app.get('/Schemas', discovery, async (request, reply) => {
    traceOf(request).detail = 'Lectura de los esquemas';
    return plain(reply, listOf([...schemaDocuments(baseUrl).values()]));
  });
  app.get<{ Params: { urn: string } }>('/Schemas/:urn', discovery, async (request, reply) => {
    const document = schemaDocuments(baseUrl).get(request.params.urn.toLowerCase());
    if (!document) throw new ScimError(404, M.schemaNotFound);
    traceOf(request).detail = 'Lectura de un esquema';
    return plain(reply, document);
  });

  app.get('/Users', users, async (request, reply) =>
    answer(request, reply, await listUsers(app.db, scope(request), paging(request.query as Record<string, unknown>))),
  );
  app.post('/Users', users, async (request, reply) => {
    traceOf(request).userName = bodyUserName(request.body);
    const outcome = await createUser(app.db, scope(request), request.body);
    if (outcome.noSessionChange) changesNoSessionState(request);
    reply.header('location', outcome.result.meta.location);
    return answer(request, reply, outcome, 201);
  });
  app.get<{ Params: { id: string } }>('/Users/:id', users, async (request, reply) =>
    answer(request, reply, await getUser(app.db, scope(request), request.params.id)),
  );
  app.put<{ Params: { id: string } }>('/Users/:id', users, async (request, reply) => {
    traceOf(request).userName = bodyUserName(request.body);
    return answer(request, reply, await replaceUser(app.db, scope(request), request.params.id, request.body));
  });
  app.patch<{ Params: { id: string } }>('/Users/:id', users, async (request, reply) =>
    answer(request, reply, await patchUser(app.db, scope(request), request.params.id, request.body)),
  );
  app.delete<{ Params: { id: string } }>('/Users/:id', users, async (request, reply) =>
    answer(request, reply, await deleteUser(app.db, scope(request), request.params.id), 204),
  );

  // Groups: the company's rules tie them to seats and roles (domain/companies/directory-follow.ts).
  const withMembers = (query: unknown) => {
    const excluded = (query as { excludedAttributes?: unknown }).excludedAttributes;
    return !(
      typeof excluded === 'string' && excluded.split(',').some((name) => name.trim().toLowerCase() === 'members')
    );
  };
  app.get('/Groups', users, async (request, reply) =>
    answer(
      request,
      reply,
      await listGroups(app.db, scope(request), {
        ...paging(request.query as Record<string, unknown>),
        withMembers: withMembers(request.query),
      }),
    ),
  );
  app.post('/Groups', users, async (request, reply) => {
    const outcome = await createGroup(app.db, scope(request), request.body);
    if (outcome.noSessionChange) changesNoSessionState(request);
    reply.header('location', outcome.result.meta.location);
    return answer(request, reply, outcome, 201);
  });
  app.get<{ Params: { id: string } }>('/Groups/:id', users, async (request, reply) =>
    answer(request, reply, await getGroup(app.db, scope(request), request.params.id, withMembers(request.query))),
  );
  app.put<{ Params: { id: string } }>('/Groups/:id', users, async (request, reply) =>
    answer(request, reply, await replaceGroup(app.db, scope(request), request.params.id, request.body)),
  );
  app.patch<{ Params: { id: string } }>('/Groups/:id', users, async (request, reply) =>
    answer(request, reply, await patchGroup(app.db, scope(request), request.params.id, request.body), 204),
  );
  app.delete<{ Params: { id: string } }>('/Groups/:id', users, async (request, reply) =>
    answer(request, reply, await deleteGroup(app.db, scope(request), request.params.id), 204),
  );
}
