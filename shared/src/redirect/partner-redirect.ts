import { mintPartnerToken } from '../api/auth';
import { isAllowedRedirect } from '@portal/contracts/redirect/allow-list';

/**
 * The one way the portal hands a signed-in person to a partner (spec §4; docs/decisions/0007-partner-tokens.md): the
 * allowed target with a `token` query parameter holding a token the API minted for that target alone (its origin or
 * deep-link scheme, short-lived, read-only). The portal's own session token never leaves the portal. Null when the
 * target is not allowed or no token could be minted: the caller then stays in the portal (/apps).
 */
export async function partnerRedirect(
  raw: string | null | undefined,
  allowList: readonly string[],
): Promise<string | null> {
  if (!raw || !isAllowedRedirect(raw, allowList)) return null;
  let token: string;
  try {
    token = (await mintPartnerToken(raw)).access_token;
  } catch {
    return null;
  }
  const url = new URL(raw);
  url.searchParams.set('token', token);
  return url.toString();
}
