/**
 * Which profile pictures the portal stores and shows, one rule for the API (which refuses the rest with
 * `PICTURE_NOT_ALLOWED_MESSAGE`) and every page that draws a picture (which draws the rest as the generic icon).
 *
 * A picture is fetched by whoever looks at it: an administrator's browser in the users list. Any URL would let any
 * user learn the administrators' addresses, browsers and when they look (a tracking pixel). So only the identity
 * providers' avatar hosts are allowed, over https on the default port: Google's `*.googleusercontent.com` (the
 * `picture` claim of its ID token); Apple sends no picture. Pages also draw them with `referrerPolicy="no-referrer"`,
 * so the host does not learn which page of the portal asked either.
 */

/** Hosts under these domains serve the providers' avatars. Content Security Policy `img-src` names the same. */
export const PICTURE_HOST_DOMAINS = ['googleusercontent.com'] as const;

/** The API's refusal (HTTP 400, code PICTURE_NOT_ALLOWED). */
export const PICTURE_NOT_ALLOWED_MESSAGE =
  'La foto de perfil solo puede ser la de tu cuenta de Google (una dirección https de googleusercontent.com).';

/** The column's limit, as the API's schema says. */
const MAX_LENGTH = 2048;
/** Whitespace, control characters (Unicode Cc) and backslashes make scheme and host ambiguous (browsers read '\' as '/'). */
const AMBIGUOUS = /[\s\\\p{Cc}]/u;

export function isAllowedPicture(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_LENGTH || AMBIGUOUS.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false;
  // The URL parser lowercases the host; a trailing dot ('…googleusercontent.com.') matches no domain below.
  return PICTURE_HOST_DOMAINS.some((domain) => url.hostname.endsWith(`.${domain}`));
}

/** The picture to draw, or null for the generic icon (no picture, or one stored before the rule that breaks it). */
export function shownPicture(picture: string | null | undefined): string | null {
  return isAllowedPicture(picture) ? picture : null;
}
