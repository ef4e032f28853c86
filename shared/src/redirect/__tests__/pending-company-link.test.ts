import { whenApiIdle } from '../../api/client';
import { type FakeApi, useFakeApi } from '../../testing/fake-api';
import { user } from '../../testing/fixtures';
import {
  COMPANY_LINK_NOTICE_KEY,
  COMPANY_LINK_NOTICE_TTL_MS,
  isCompanyLink,
  PENDING_COMPANY_LINK_KEY,
  PENDING_COMPANY_LINK_TTL_MS,
  readCompanyLinkNotice,
  readPendingCompanyLink,
  redeemPendingCompanyLink,
  storePendingCompanyLink,
  takePendingCompanyLink,
} from '../pending-company-link';
import { signInLanding } from '../sign-in-landing';

const CODE = 'q8Zt3mW9xYk2Lr5Pb7Nc1Vd4Hf6Js0Ga_-uEo3TiQw';
const SECRET = 'Xk9_pL2-mN4qR7sT1uV3wY5zA8bC0dE6fG2hJ4kL6mN';
const link = { codigo: CODE, empresa: 'Minera Andina S.A.', secreto: SECRET };

beforeEach(() => sessionStorage.clear());

describe('the company link a tab proves through a sign-in', () => {
  it('is a random code, a company name and the secret of the company sign-in this tab started', () => {
    expect(isCompanyLink(link)).toBe(true);
    expect(isCompanyLink({ ...link, codigo: 'a'.repeat(64) })).toBe(true);
  });

  it.each([
    ['a short code', { ...link, codigo: 'abc' }],
    ['a code with other characters', { ...link, codigo: `${CODE.slice(0, 20)}<script>` }],
    ['a code too long', { ...link, codigo: 'a'.repeat(129) }],
    ['no code', { ...link, codigo: null }],
    ['an empty company name', { ...link, empresa: '   ' }],
    ['a name with control characters', { ...link, empresa: 'Minera\nAndina' }],
    ['a name too long', { ...link, empresa: 'M'.repeat(201) }],
    ['no secret (the link opened in another tab)', { ...link, secreto: '' }],
    ['a bad secret', { ...link, secreto: 'no es un secreto' }],
  ])('%s is never stored', (_, bad) => {
    expect(isCompanyLink(bad)).toBe(false);
    expect(storePendingCompanyLink(bad as typeof link)).toBe(false);
    expect(sessionStorage.getItem(PENDING_COMPANY_LINK_KEY)).toBeNull();
  });

  it('is read as often as asked, taken once, and kept in this tab only (sessionStorage)', () => {
    expect(storePendingCompanyLink({ ...link, empresa: '  Minera Andina S.A. ' }, 1_000)).toBe(true);
    expect(localStorage.length).toBe(0);
    expect(readPendingCompanyLink(2_000)).toEqual(link);
    expect(readPendingCompanyLink(2_000)).toEqual(link);
    expect(takePendingCompanyLink(2_000)).toEqual(link);
    expect(takePendingCompanyLink(2_000)).toBeNull();
  });

  it('expires after 10 minutes (the API keeps the code no longer), and is dropped when taken expired', () => {
    storePendingCompanyLink(link, 0);
    expect(PENDING_COMPANY_LINK_TTL_MS).toBe(600_000);
    expect(readPendingCompanyLink(PENDING_COMPANY_LINK_TTL_MS - 1)).toEqual(link);
    expect(readPendingCompanyLink(PENDING_COMPANY_LINK_TTL_MS)).toBeNull();
    // A clock moved back is not trusted either.
    expect(readPendingCompanyLink(-1)).toBeNull();
    expect(takePendingCompanyLink(PENDING_COMPANY_LINK_TTL_MS)).toBeNull();
    expect(sessionStorage.getItem(PENDING_COMPANY_LINK_KEY)).toBeNull();
  });

  it('ignores what it did not write: bad JSON, a tampered value, no time', () => {
    for (const raw of [
      '{',
      JSON.stringify({ ...link, codigo: 'x', at: 0 }),
      JSON.stringify({ ...link }),
      JSON.stringify({ ...link, at: '0' }),
    ]) {
      sessionStorage.setItem(PENDING_COMPANY_LINK_KEY, raw);
      expect(takePendingCompanyLink(1)).toBeNull();
    }
  });
});

describe('redeeming the link after a sign-in', () => {
  let api: FakeApi;
  let reply: { status: number; body?: unknown };

  beforeEach(async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    reply = { status: 200, body: { empresa: { id: 4, nombre: 'Minera Andina S.A.' } } };
    api = await useFakeApi({ 'POST /auth/empresa/vincular': () => reply }, { user: user() });
  });
  afterEach(async () => {
    await whenApiIdle();
    await api.close();
    jest.restoreAllMocks();
  });

  const linkCalls = () => api.requests.filter((request) => request.path === '/auth/empresa/vincular');

  it('sends {codigo, secreto} once with the session, forgets the link and keeps a success notice', async () => {
    storePendingCompanyLink(link);
    localStorage.setItem('token', 'token-de-la-sesion');
    expect(await redeemPendingCompanyLink()).toEqual({
      tone: 'success',
      text: 'Tu cuenta ya está vinculada al acceso de Minera Andina S.A.',
    });
    expect(await redeemPendingCompanyLink()).toBeNull();
    expect(linkCalls()).toHaveLength(1);
    expect(JSON.parse(linkCalls()[0]?.body ?? '{}')).toEqual({ codigo: CODE, secreto: SECRET });
    expect(sessionStorage.getItem(PENDING_COMPANY_LINK_KEY)).toBeNull();
    expect(readCompanyLinkNotice()?.tone).toBe('success');
  });

  it("a refused link is forgotten too, and the notice is the API's message", async () => {
    const message =
      'El enlace con el acceso de tu empresa ha caducado o no es válido. Vuelve a pulsar «Continuar con el acceso de tu empresa».';
    reply = { status: 400, body: { statusCode: 400, code: 'VINCULO_INVALIDO', message } };
    storePendingCompanyLink(link);
    expect(await redeemPendingCompanyLink()).toEqual({ tone: 'error', text: message });
    expect(takePendingCompanyLink()).toBeNull();
    expect(readCompanyLinkNotice()).toEqual({ tone: 'error', text: message });
  });

  it('sends nothing when no link is kept', async () => {
    expect(await redeemPendingCompanyLink()).toBeNull();
    expect(api.requests).toHaveLength(0);
    expect(sessionStorage.getItem(COMPANY_LINK_NOTICE_KEY)).toBeNull();
  });

  it('an old notice is not about this sign-in', () => {
    sessionStorage.setItem(
      COMPANY_LINK_NOTICE_KEY,
      JSON.stringify({ tone: 'success', text: 'x', at: Date.now() - COMPANY_LINK_NOTICE_TTL_MS }),
    );
    expect(readCompanyLinkNotice()).toBeNull();
    sessionStorage.setItem(COMPANY_LINK_NOTICE_KEY, JSON.stringify({ tone: 'alarma', text: 'x', at: Date.now() }));
    expect(readCompanyLinkNotice()).toBeNull();
  });

  it('the one landing decision redeems it once, and a refusal never stops the landing', async () => {
    reply = { status: 500, body: { statusCode: 500, message: 'Internal Server Error' } };
    storePendingCompanyLink(link);
    expect(await signInLanding(null, { role: 2 })).toEqual({ kind: 'page', path: '/apps' });
    expect(await signInLanding(null, { role: 2 })).toEqual({ kind: 'page', path: '/apps' });
    expect(linkCalls()).toHaveLength(1);
    expect(readCompanyLinkNotice()).toEqual({
      tone: 'error',
      text: 'No se pudo vincular tu cuenta al acceso de tu empresa. Vuelve a pulsar «Continuar con el acceso de tu empresa».',
    });
  });
});
