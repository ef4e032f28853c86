/**
 * The provider's middleware that makes it see every request as addressed to its issuer. Koa derives the provider's
 * URLs (discovery, the logout form, an interaction's way back) and its cookies' Secure flag from the request's Host,
 * X-Forwarded-Host and X-Forwarded-Proto or an absolute request target, all of which a client writes: a cache in front
 * that does not key on them would hand every app an attacker's addresses (docs/decisions/0055).
 */
export function addressedToIssuer(issuer: string) {
  const { protocol, host, origin } = new URL(issuer);
  return async (ctx: { originalUrl: string; request: object }, next: () => Promise<unknown>) => {
    const { pathname, search } = new URL(ctx.originalUrl, origin);
    const href = `${origin}${pathname}${search}`;
    Object.defineProperties(ctx.request, {
      protocol: { value: protocol.slice(0, -1) },
      host: { value: host },
      href: { value: href },
      URL: { value: new URL(href) },
    });
    await next();
  };
}
