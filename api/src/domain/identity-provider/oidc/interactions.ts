// The portal's side of an authorization that needs the person (docs/decisions/0055): what the screens show, and the
// answer they give, with the portal session that signed in. The library ties each interaction to a cookie of the
// browser that started it: `interactionDetails` refuses any other browser, so a session of one browser never
// finishes an interaction of another.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Client, Interaction, InteractionResults } from 'oidc-provider';
import type { Db } from '../../../db/client.js';
import { HttpError } from '../../../lib/errors.js';
import { secondFactorAsked } from '../authentication-methods.js';
import { accountIdOf } from '../claims.js';
import { portalFacts } from '../client-facts.js';
import { requestedScopes } from '../consents.js';
import {
  type ContinuationView,
  continueSignIn,
  describeContinuation,
  type PortalSignIn,
  type SignInAsk,
} from '../continuation.js';
import { identityProviderMessages as M } from '../messages.js';
import type { PortalLogin } from '../portal-sessions.js';
import { personRefused } from './protocol-errors.js';
import { describeScopes } from '../scopes.js';

export type { PortalSignIn };

export const interactionNotFound = () => new HttpError(404, M.interactionNotFound, 'INTERACTION_NOT_FOUND');

/** What the consent and sign-in screens show about an interaction (GET /oidc/interaccion/{uid}/detalles). */
export type InteractionView = ContinuationView;

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

/** The app's demand for a fresh sign-in: prompt=login wants one made after the request began, max_age one no older. */
function freshnessAsked(interaction: Interaction): SignInAsk['fresh'] {
  const reasons = interaction.prompt.reasons;
  const maxAge = Number(interaction.params.max_age);
  const after = reasons.includes('login_prompt') ? (interaction.iat ?? 0) : undefined;
  const oldest = reasons.includes('max_age') && Number.isFinite(maxAge) ? maxAge : undefined;
  if (after === undefined && oldest === undefined) return undefined;
  return { ...(after === undefined ? {} : { after }), ...(oldest === undefined ? {} : { maxAge: oldest }) };
}

/** What the interaction asks of the continuation: the client, its scopes, prompt=consent, a fresh sign-in, step-up. */
function askOf(client: Client, interaction: Interaction): SignInAsk {
  return {
    app: {
      id: client.clientId,
      nombre: String(client.clientName ?? client.clientId),
      primeraParte: portalFacts(client).firstParty,
      consent: { protocol: 'oidc', clientId: client.clientId },
    },
    permisos: describeScopes(requestedScopes(client, interaction.params.scope)),
    // The app asked for the consent screen itself (prompt=consent, as OpenID Connect wants with offline_access).
    consentAsked: interaction.prompt.reasons.includes('consent_prompt'),
    fresh: freshnessAsked(interaction),
    secondFactor: secondFactorAsked(interaction.params),
  };
}

export async function describeInteraction(
  deps: InteractionDeps,
  interaction: Interaction,
  signIn: PortalSignIn | undefined,
): Promise<InteractionView> {
  return describeContinuation(deps.db, askOf(await clientOf(deps.provider, interaction), interaction), signIn);
}

/**
 * The person's answer, signed in with the portal session `signIn`, once the continuation let it through: the login
 * (that session's person, sign-in time and how), the grant of the scopes asked, and the portal session the provider
 * session is linked to. Answers where the browser goes next (the library's resume).
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
  const passed = await continueSignIn(db, askOf(client, interaction), signIn, allow);
  const accountId = accountIdOf(signIn.userId);
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant =
    existing?.accountId === accountId ? existing : new provider.Grant({ accountId, clientId: client.clientId });
  grant.addOIDCScope(passed.scopes.join(' '));
  const grantId = await grant.save();
  const portal: PortalLogin = { sessionId: signIn.sessionId, expiresAt: seconds(signIn.expiresAt.getTime()) };
  const result: InteractionResults = {
    login: { accountId, ts: passed.authTime, remember: true, amr: passed.amr, acr: passed.acr },
    consent: { grantId },
    portal,
  };
  return provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
}

/**
 * The person said no ('Cancelar'): the app is told `access_denied`; or, when the app demanded a second factor the
 * person did not prove (`stepUp`), `unmet_authentication_requirements` (protocol-errors.ts `personRefused`).
 */
export async function refuseInteraction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  interaction: Interaction,
  stepUp = false,
): Promise<string> {
  const { error, description } = personRefused(stepUp && secondFactorAsked(interaction.params));
  return provider.interactionResult(
    req,
    res,
    { error, error_description: description },
    { mergeWithLastSubmission: false },
  );
}
