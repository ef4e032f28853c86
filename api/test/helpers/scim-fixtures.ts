// A company ready for its directory (SCIM): an owner, a domain proved by a platform administrator, a licence with
// seats, and a directory token its owner created; and SCIM calls as a directory makes them.
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { insertCompany, insertLicence, insertMember } from './company-fixtures.js';

export interface ScimCompany {
  companyId: number;
  domain: string;
  owner: { id: number; email: string; token: () => Promise<string> };
  token: string;
}

/** Claims `domain` for the company and has the platform administrator confirm it (no TXT record). */
export async function proveDomain(app: FastifyInstance, admin: string, companyId: number, domain: string) {
  const headers = { authorization: `Bearer ${admin}` };
  const claimed = await app.inject({
    method: 'POST',
    url: `/empresas/${companyId}/dominios`,
    headers,
    payload: { dominio: domain },
  });
  assert.equal(claimed.statusCode, 201, claimed.body);
  const confirmed = await app.inject({
    method: 'POST',
    url: `/empresas/${companyId}/dominios/${domain}/confirmar`,
    headers,
  });
  assert.equal(confirmed.statusCode, 200, confirmed.body);
}

/** A company with its owner (at its domain), the domain proved, a licence of app 1 with `seats`, and a SCIM token. */
export async function scimCompany(
  app: FastifyInstance,
  admin: string,
  name: string,
  domain: string,
  seats = 5,
): Promise<ScimCompany> {
  const companyId = await insertCompany(app, name);
  const owner = await insertMember(app, companyId, `duena@${domain}`, 'propietario');
  await proveDomain(app, admin, companyId, domain);
  await insertLicence(app, companyId, 1, seats);
  const created = await app.inject({
    method: 'POST',
    url: `/empresas/${companyId}/scim/tokens`,
    headers: { authorization: `Bearer ${await owner.token()}` },
    payload: { descripcion: 'Microsoft Entra ID' },
  });
  assert.equal(created.statusCode, 201, created.body);
  return { companyId, domain, owner, token: created.json<{ token: string }>().token };
}

/** A SCIM call as a directory makes it: bearer token, application/scim+json body. */
export function scim(
  app: FastifyInstance,
  token: string | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  contentType = 'application/scim+json',
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/scim/v2${path}`,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    },
    ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}

/** The SCIM error body of a refusal, checked for shape and content type. */
export function scimError(response: LightMyRequestResponse, status: number, scimType?: string) {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.headers['content-type'], 'application/scim+json; charset=utf-8');
  const body = response.json<{ schemas: string[]; status: string; scimType?: string; detail: string }>();
  assert.deepEqual(body.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
  assert.equal(body.status, String(status));
  assert.equal(body.scimType, scimType);
  assert.ok(body.detail.length > 0);
  return body;
}

/** What Microsoft Entra ID POSTs for a new person (its documented request, at the company's domain). */
export function entraUser(userName: string, externalId: string) {
  return {
    schemas: [
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    ],
    externalId,
    userName,
    active: true,
    emails: [{ primary: true, type: 'work', value: userName }],
    meta: { resourceType: 'User' },
    name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
    roles: [],
  };
}

const englishWords =
  /\b(must|should|invalid|required|unexpected|error|expected|property|body|missing|not found|failed|allowed)\b/i;
const spanishWords = /[áéíóúñ¿¡]|\b(no|de|el|la|los|las|un|una|del|es|está|para|por|con)\b/i;

/**
 * Why an error answer of /scim/v2 is not SCIM's error body with a Spanish detail (RFC 7644 §3.12), or undefined when
 * it is: the SCIM routes' counterpart of helpers/hostile.ts's spanishErrorProblem.
 */
export function scimErrorProblem(response: LightMyRequestResponse): string | undefined {
  if (response.headers['content-type'] !== 'application/scim+json; charset=utf-8')
    return `content-type ${response.headers['content-type']}`;
  let body: { schemas?: unknown; status?: unknown; detail?: unknown };
  try {
    body = response.json();
  } catch {
    return 'the body is not JSON';
  }
  if (JSON.stringify(body.schemas) !== '["urn:ietf:params:scim:api:messages:2.0:Error"]') return 'not a SCIM error';
  if (body.status !== String(response.statusCode)) return `status ${String(body.status)} in the body`;
  if (typeof body.detail !== 'string' || !body.detail.trim()) return 'no detail';
  const own = body.detail.replace(/[«'].*[»']/s, "''");
  if (englishWords.test(own) || !spanishWords.test(own)) return `detail not in Spanish: ${body.detail}`;
  return undefined;
}
