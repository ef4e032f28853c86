import {
  asksFreshSignIn,
  samlLoginPath,
  authorizePath,
  interactionLoginPath,
  isFreshSignInPending,
  isInteractionUid,
  PENDING_INTERACTION_KEY,
  PENDING_INTERACTION_TTL_MS,
  storePendingInteraction,
  takePendingInteraction,
} from '../pending-interaction';

const UID = 'Xq3_kP9-aB7cD2eF1gH0i';

beforeEach(() => sessionStorage.clear());

describe("an interaction's id", () => {
  it('is a URL-safe string of the API ids’ length; anything else is refused', () => {
    expect(isInteractionUid(UID)).toBe(true);
    expect(isInteractionUid('a'.repeat(43))).toBe(true);
    for (const bad of [null, undefined, '', 'corto', 'a'.repeat(65), `${UID}/../x`, `${UID}?a=1`, 'ñ'.repeat(21)])
      expect(isInteractionUid(bad)).toBe(false);
  });

  it('makes the addresses of /autorizar and of its sign-in', () => {
    expect(authorizePath(UID)).toBe(`/autorizar?interaccion=${UID}`);
    expect(interactionLoginPath(UID, false)).toBe(`/login?interaccion=${UID}`);
    expect(interactionLoginPath(UID, true)).toBe(`/login?interaccion=${UID}&reautenticar=1`);
  });

  it('asks for a fresh sign-in only with a valid id and the flag', () => {
    expect(asksFreshSignIn(new URLSearchParams(`interaccion=${UID}&reautenticar=1`))).toBe(true);
    expect(asksFreshSignIn(new URLSearchParams(`interaccion=${UID}`))).toBe(false);
    expect(asksFreshSignIn(new URLSearchParams('interaccion=x&reautenticar=1'))).toBe(false);
    expect(asksFreshSignIn(new URLSearchParams('reautenticar=1'))).toBe(false);
  });

  it("asks for a fresh sign-in for a SAML app's ForceAuthn, with a valid request id", () => {
    const id = 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6';
    expect(samlLoginPath(id, true)).toBe(`/login?solicitud=${id}&reautenticar=1`);
    expect(samlLoginPath(id, false)).toBe('/login');
    expect(asksFreshSignIn(new URLSearchParams(`solicitud=${id}&reautenticar=1`))).toBe(true);
    expect(asksFreshSignIn(new URLSearchParams(`solicitud=${id}`))).toBe(false);
    expect(asksFreshSignIn(new URLSearchParams('solicitud=corto&reautenticar=1'))).toBe(false);
  });
});

describe("the tab's pending interaction", () => {
  it('is kept in this tab and read once', () => {
    storePendingInteraction(UID, false, 1_000);
    expect(sessionStorage.getItem(PENDING_INTERACTION_KEY)).not.toBeNull();
    expect(takePendingInteraction(2_000)).toBe(UID);
    expect(takePendingInteraction(2_000)).toBeNull();
  });

  it('is dropped once the API has surely forgotten it', () => {
    storePendingInteraction(UID, false, 0);
    expect(takePendingInteraction(PENDING_INTERACTION_TTL_MS)).toBeNull();
    expect(sessionStorage.getItem(PENDING_INTERACTION_KEY)).toBeNull();
  });

  it('remembers whether the app asked for a fresh sign-in, without consuming the interaction', () => {
    storePendingInteraction(UID);
    expect(isFreshSignInPending()).toBe(false);
    storePendingInteraction(UID, true);
    expect(isFreshSignInPending()).toBe(true);
    expect(isFreshSignInPending()).toBe(true);
    expect(takePendingInteraction()).toBe(UID);
    expect(isFreshSignInPending()).toBe(false);
  });

  it('never keeps nor returns what is not an id', () => {
    storePendingInteraction('../admin');
    expect(sessionStorage.getItem(PENDING_INTERACTION_KEY)).toBeNull();
    sessionStorage.setItem(PENDING_INTERACTION_KEY, JSON.stringify({ uid: 'x/y', at: Date.now() }));
    expect(takePendingInteraction()).toBeNull();
    sessionStorage.setItem(PENDING_INTERACTION_KEY, 'no es JSON');
    expect(takePendingInteraction()).toBeNull();
  });
});
