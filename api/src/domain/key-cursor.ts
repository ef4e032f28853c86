// A page cursor naming the last row shown by the ids of its key (the company's member and seat lists, a subscription's
// deliveries): opaque to the client, checked on the way back in.
import { HttpError } from '../lib/errors.js';

/** The largest int4: past the largest id a key holds, a cursor can only be forged. */
export const largestInt4 = 2_147_483_647;
const invalidCursorMessage = 'El cursor de la página no es válido: vuelve a la primera página de la lista';

export const invalidCursor = () => new HttpError(400, invalidCursorMessage, 'INVALID_CURSOR');

/** A cursor naming a row by the ids of its key, e.g. `[userId]` or `[appId, userId]`. */
export function encodeCursor(ids: number[]): string {
  return Buffer.from(JSON.stringify(ids)).toString('base64url');
}

/**
 * The ids a cursor names (`size` of them, each an integer from `smallest` up to `largest`), or the 400 INVALID_CURSOR.
 */
export function decodeCursor(cursor: string, size: number, largest = largestInt4, smallest = 1): number[] {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (
    !Array.isArray(value) ||
    value.length !== size ||
    !value.every((id) => Number.isInteger(id) && id >= smallest && id <= largest)
  ) {
    throw invalidCursor();
  }
  return value as number[];
}
