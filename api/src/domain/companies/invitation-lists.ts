// Inviting a list of people at once (docs/decisions/0132-inviting-many-people.md): each row is one invitation as
// `invite` makes it, in its own transaction, and answers its own result; a row's refusal never stops the next.
import { companyRoles, type CompanyRole } from '../../db/schema.js';
import { normalizeEmail, isEmailAddress } from '../../lib/email-address.js';
import { HttpError, isDatabaseUnavailable, messages, quoted } from '../../lib/errors.js';
import type { AuditActor } from '../audit/log.js';
import type { CompanyAccess } from './access.js';
import { type InvitationDeps, invite } from './invitations.js';
import { companyMessages } from './messages.js';

/** The most rows one request may carry; a longer list is sent in several. */
export const maxListRows = 500;

/** A row as the caller sends it: the role and the app by their ids, checked here one row at a time. */
export interface ListRow {
  email: string;
  rol: string;
  idApp?: number;
}

export type ListOutcome = 'invitada' | 'ya_miembro' | 'ya_invitada' | 'error';

/** What became of one row, in the order sent; `fila` counts from 1. */
export interface ListRowResult {
  fila: number;
  email: string;
  resultado: ListOutcome;
  /** The invitation made ('invitada'). */
  idInvitacion?: number;
  /** Why not (every result but 'invitada'): the code the single invitation would answer, and its Spanish message. */
  codigo?: string;
  mensaje?: string;
  /** Seconds until the row may be sent again (`INVITATION_MAIL_LIMIT`, `CODE_MAIL_LIMIT`). */
  retryAfter?: number;
}

export interface ListOptions {
  /** Whether another row may still start: false once the request has used its share of the deadline. */
  stillInTime(): boolean;
  /** An unexpected failure of a row (the database gone): the row and the rest are answered as not done. */
  failed(error: unknown): void;
}

const isRole = (role: string): role is CompanyRole => (companyRoles as readonly string[]).includes(role);

/** An address as an account keeps it, or undefined when it is none (the single invitation's schema, by hand). */
function addressOf(raw: string): string | undefined {
  const email = normalizeEmail(raw);
  return email.length >= 3 && email.length <= 254 && isEmailAddress(email) ? email : undefined;
}

const refusal = (fila: number, email: string, codigo: string, mensaje: string): ListRowResult => ({
  fila,
  email,
  resultado: 'error',
  codigo,
  mensaje,
});

/** A refusal of `invite` as the row's result: a member's or a pending address is no error, the rest are. */
function outcomeOf(fila: number, email: string, error: HttpError): ListRowResult {
  const codigo = error.code ?? 'ERROR';
  const resultado: ListOutcome =
    codigo === 'YA_ES_MIEMBRO' ? 'ya_miembro' : codigo === 'INVITACION_PENDIENTE' ? 'ya_invitada' : 'error';
  return {
    fila,
    email,
    resultado,
    codigo,
    mensaje: error.message,
    ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
  };
}

/**
 * Invites each row of the list into the company, one after another, each exactly as `invite` does (the address read
 * as accounts read it, the role the actor may give, a seat free for the app, members and pending addresses told
 * apart, the company's invitation mails of the hour), and answers one result per row in the order sent. A row is done
 * or not done on its own: its invitation and its mail are committed together, the others are untouched by its fate.
 */
export async function inviteList(
  deps: InvitationDeps,
  actor: AuditActor,
  access: CompanyAccess,
  rows: readonly ListRow[],
  options: ListOptions,
): Promise<ListRowResult[]> {
  const results: ListRowResult[] = [];
  let stopped = false;
  for (const [index, row] of rows.entries()) {
    const fila = index + 1;
    const email = addressOf(row.email);
    const shown = email ?? row.email.trim();
    // The first row always starts: a request always does something.
    if (stopped || (index > 0 && !options.stillInTime())) {
      stopped = true;
      results.push(refusal(fila, shown, 'NO_PROCESADA', companyMessages.listRowNotReached));
      continue;
    }
    if (email === undefined) {
      results.push(refusal(fila, shown, 'EMAIL_INVALIDO', companyMessages.listEmailInvalid));
      continue;
    }
    const role = row.rol.trim();
    if (!isRole(role)) {
      results.push(refusal(fila, email, 'ROL_INVALIDO', companyMessages.listRoleInvalid(quoted(row.rol))));
      continue;
    }
    try {
      const made = await invite(deps, actor, access, { email, role, appId: row.idApp });
      results.push({ fila, email, resultado: 'invitada', idInvitacion: made.id });
    } catch (error) {
      if (error instanceof HttpError) {
        results.push(outcomeOf(fila, email, error));
        continue;
      }
      // Nothing of this row was committed; the ones before it were, and the caller learns which.
      options.failed(error);
      stopped = true;
      results.push(
        isDatabaseUnavailable(error)
          ? refusal(fila, email, 'SERVICE_UNAVAILABLE', messages.unavailable)
          : refusal(fila, email, 'ERROR_INTERNO', messages.internal),
      );
    }
  }
  return results;
}
