import {
  clearPendingInteraction,
  type InteractionDetails,
  type InteractionRedirect,
  interactionLoginPath,
  isInteractionUid,
  samlLoginPath,
  storePendingInteraction,
  storePendingPage,
} from '@portal/shared';
import { cancelInteraction, continueInteraction, getInteractionDetails, INTERACTION_FALLBACK } from './api';
import {
  cancelSamlRequest,
  continueSamlRequest,
  getSamlRequest,
  isSamlRequestId,
  SAML_CONTINUE_PATH,
  SAML_FALLBACK,
  SAML_REQUEST_PARAM,
} from './saml';

/**
 * A door through which a partner app asks the portal to sign the person in (decision 0115): its calls and where it
 * keeps the request while the person signs in. The page of every door is one (pages/authorize/): the door says only
 * how to read, answer and keep its own request.
 */
export interface ContinuationDoor {
  /** Whether `id` can be one of this door's requests: anything else is never sent to the API. */
  isId(id: string | null): id is string;
  /** The request can be read only with a session (else the person signs in first, and the page comes back). */
  readNeedsSession: boolean;
  read(id: string): Promise<InteractionDetails>;
  /** Goes on to the app; `allow` is the person's 'Permitir'. */
  answer(id: string, allow: boolean): Promise<InteractionRedirect>;
  /**
   * The person refused, or leaves a refused sign-in: the app is told so; `stepUp`: they did not prove the second
   * factor the app asked for (the app is told its authentication requirements were not met).
   */
  cancel(id: string, stepUp?: boolean): Promise<InteractionRedirect>;
  /** Keeps the request in the tab for after a sign-in (`fresh`: the app asked for a new one). */
  keep(id: string, fresh: boolean): void;
  /** Where the person signs in for it. */
  signInPath(id: string, fresh: boolean): string;
  /** The request is answered: nothing of it is kept. */
  forget(): void;
  fallback: { details: string; continue: string; cancel: string };
}

/** An OpenID Connect interaction (/autorizar?interaccion=…, decision 0056): kept by its id for /login. */
export const oidcDoor: ContinuationDoor = {
  isId: isInteractionUid,
  readNeedsSession: false,
  read: getInteractionDetails,
  answer: continueInteraction,
  cancel: cancelInteraction,
  keep: storePendingInteraction,
  signInPath: interactionLoginPath,
  forget: clearPendingInteraction,
  fallback: INTERACTION_FALLBACK,
};

const samlPage = (id: string) => `${SAML_CONTINUE_PATH}?${SAML_REQUEST_PARAM}=${encodeURIComponent(id)}`;

/** A SAML request waiting at the API (/saml/continuar?solicitud=…, decision 0100): kept as the page to come back to. */
export const samlDoor: ContinuationDoor = {
  isId: isSamlRequestId,
  readNeedsSession: true,
  read: getSamlRequest,
  answer: continueSamlRequest,
  cancel: cancelSamlRequest,
  keep: (id) => storePendingPage(samlPage(id)),
  signInPath: samlLoginPath,
  forget: () => undefined,
  fallback: SAML_FALLBACK,
};
