// The portal's side of an authorization that needs the person (docs/decisions/0055): what the screens show, and the
// answer they give, with the portal session that signed in. The library ties each interaction to a cookie of the
// browser that started it: `interactionDetails` refuses any other browser, so a session of one browser never
// finishes an interaction of another.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Client, Interaction, InteractionResults } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { oidcConsents } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { accountIdOf } from './claims.js';
import { identityProviderMessages as M } from './messages.js';
import { portalFacts } from './client-facts.js';
import { consentNeeded, rememberedScopes, requestedScopes } from './consents.js';
import { type PortalLogin, signedInAt } from './portal-sessions.js';
import { describeScopes } from './scopes.js';
import { enforceCompanyRules, methodOfSession } from '../sign-in-limits/company-rules.js';
import { authenticationOf } from './authentication-methods.js';

export const interactionNotFound = () => new HttpError(404, M.interactionNotFound, 'INTERACTION_NOT_FOUND');

/** What the consent and sign-in screens show about an interaction (GET /oidc/interaccion/{uid}/detalles). */
export interface InteractionView {
  cliente: { id: string; nombre: string; primeraParte: boolean };
  permisos: { scope: string; descripcion: string }[];
  /** A third-party app the person has not yet allowed these permissions: the page asks. */
  consentimiento: boolean;
  /** The app asked for a fresh sign-in (prompt=login, max_age) that this session does not satisfy. */
  reautenticar: boolean;
}

/** The portal session answering an interaction: who, which session, since and until when. */
export interface PortalSignIn {
  userId: number;
  sessionId: string;
  expiresAt: Date;
  /** How that session was signed in, and whether it proved a second factor: the ID token's `amr` and `acr`. */
  method: string | null;
  secondFactor: boolean;
  /** The client's address, as the API reads it: the company rules' networks. */
  address: string;
}

export interface InteractionDeps {
  db: Db;
  provider: Provider;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The interaction of this browser named `uid`, or 404 (unknown, expired, finished, or begun in another browser). */
export async function loadInteraction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
): Promise<Interaction> {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(req, res);
  } catch {
    throw interactionNotFound();
  }
  if (interaction.uid !== uid) throw interactionNotFound();
  return interaction;
}

async function clientOf(provider: Provider, interaction: Interaction): Promise<Client> {
  const client = await provider.Client.find(String(interaction.params.client_id ?? ''));
  if (!client) throw interactionNotFound();
  return client;
}

/**
 * Whether the app's demand for a fresh sign-in is unmet: prompt=login wants a sign-in made after the request began,
 * max_age one no older than it says.
 */
function freshSignInNeeded(interaction: Interaction, signedIn: number | undefined): boolean {
  const reasons = interaction.prompt.reasons;
  if (signedIn === undefined) return reasons.includes('login_prompt') || reasons.includes('max_age');
  if (reasons.includes('login_prompt') && signedIn < (interaction.iat ?? 0)) return true;
  const maxAge = Number(interaction.params.max_age);
  return reasons.includes('max_age') && Number.isFinite(maxAge) && seconds(Date.now()) - signedIn > maxAge;
}

/** The app asked for the consent screen itself (prompt=consent, as OpenID Connect wants with offline_access). */
function consentAsked(interaction: Interaction): boolean {
  return interaction.prompt.reasons.includes('consent_prompt');
}

export async function describeInteraction(
  deps: InteractionDeps,
  interaction: Interaction,
  signIn: PortalSignIn | undefined,
): Promise<InteractionView> {
  const client = await clientOf(deps.provider, interaction);
  const facts = portalFacts(client);
  const asked = requestedScopes(client, interaction.params.scope);
  const remembered =
    signIn && !facts.firstParty ? await rememberedScopes(deps.db, signIn.userId, client.clientId) : new Set<string>();
  return {
    cliente: {
      id: client.clientId,
      nombre: String(client.clientName ?? client.clientId),
      primeraParte: facts.firstParty,
    },
    permisos: describeScopes(asked),
    consentimiento: !facts.firstParty && (consentAsked(interaction) || consentNeeded(false, asked, remembered)),
    reautenticar: freshSignInNeeded(interaction, signIn ? await signedInAt(deps.db, signIn.sessionId) : undefined),
  };
}

/**
 * The person's answer, signed in with the portal session `signIn`: the login (that session's person and sign-in
 * time), the grant of the scopes asked (the consent, remembered for a third-party app when `allow` says so), and the
 * portal session the provider session is linked to. Answers where the browser goes next (the library's resume).
 */
export async function finishInteraction(
  deps: InteractionDeps,
  req: IncomingMessage,
  res: ServerResponse,
  interaction: Interaction,
  signIn: PortalSignIn,
  allow: boolean,
): Promise<string> {
  const { db, provider } = deps;
  const client = await clientOf(provider, interaction);
  const signedIn = await signedInAt(db, signIn.sessionId);
  if (freshSignInNeeded(interaction, signedIn)) throw new HttpError(401, M.signInAgain, 'SIGN_IN_AGAIN');
  // The rules of the person's companies hold for an app's sign-in as for the portal's (403 RED_NO_PERMITIDA…).
  await enforceCompanyRules(db, signIn.userId, methodOfSession(signIn.method), signIn.address);
  const facts = portalFacts(client);
  const asked = requestedScopes(client, interaction.params.scope);
  if (!facts.firstParty) {
    const remembered = await rememberedScopes(db, signIn.userId, client.clientId);
    if (consentAsked(interaction) || consentNeeded(false, asked, remembered)) {
      if (!allow) throw new HttpError(409, M.consentRequired, 'CONSENT_REQUIRED');
      const scopes = [...new Set([...remembered, ...asked])];
      await db
        .insert(oidcConsents)
        .values({ userId: signIn.userId, clientId: client.clientId, scopes })
        .onConflictDoUpdate({
          target: [oidcConsents.userId, oidcConsents.clientId],
          set: { scopes, grantedAt: new Date() },
        });
    }
  }
  const accountId = accountIdOf(signIn.userId);
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant =
    existing?.accountId === accountId ? existing : new provider.Grant({ accountId, clientId: client.clientId });
  grant.addOIDCScope(asked.join(' '));
  const grantId = await grant.save();
  const portal: PortalLogin = { sessionId: signIn.sessionId, expiresAt: seconds(signIn.expiresAt.getTime()) };
  const result: InteractionResults = {
    login: { accountId, ts: signedIn, remember: true, ...authenticationOf(signIn) },
    consent: { grantId },
    portal,
  };
  return provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
}

/** The person said no ('Cancelar'): the app is told `access_denied`. */
export async function refuseInteraction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<string> {
  return provider.interactionResult(
    req,
    res,
    { error: 'access_denied', error_description: 'End-User aborted interaction' },
    { mergeWithLastSubmission: false },
  );
}
