// The provider's device grant (RFC 8628, docs/decisions/0086-device-sign-in.md), the portal's way: the person answers
// at the portal's /dispositivo (device.ts), never on the library's pages, and the device is told the portal's address,
// its polling interval, slow_down when it polls too fast and unauthorized_client for a client not allowed the grant.
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { currentRequestAddress } from '../../../lib/request-scope.js';
import { deviceCodeGrantType } from './clients.js';
import { type DeviceInfo, devicePollIntervalSeconds, userCodeMask } from './device.js';
import { deviceVerificationUri } from './endpoints.js';

/**
 * The library's `deviceFlow` feature. Its own pages stay unmounted; were one reached all the same, it sends the
 * browser to the portal.
 */
export function deviceFlowFeature(portalUrl: string): NonNullable<Configuration['features']>['deviceFlow'] {
  return {
    enabled: true,
    charset: 'base-20',
    mask: userCodeMask,
    // The address shown at /dispositivo is the API's reading behind its proxies (the request's scope), never Koa's:
    // Koa reads no forwarded header here (issuer-address.ts), so it would name the proxy.
    deviceInfo: (ctx): DeviceInfo => ({
      ip: currentRequestAddress() ?? ctx.ip,
      ua: ctx.get('user-agent') || undefined,
    }),
    async userCodeInputSource(ctx) {
      ctx.status = 303;
      ctx.redirect(deviceVerificationUri(portalUrl));
    },
    async userCodeConfirmSource(ctx) {
      ctx.status = 303;
      ctx.redirect(deviceVerificationUri(portalUrl));
    },
    async successSource(ctx) {
      ctx.status = 303;
      ctx.redirect(deviceVerificationUri(portalUrl));
    },
  };
}

/**
 * The device grant's answers: the address the device shows is the portal's /dispositivo (the library would name its
 * own page), a device that polls too fast is told slow_down (the library never says it), and a client not allowed the
 * grant is told unauthorized_client (RFC 6749 §5.2) rather than invalid_request. `pollTooSoon` says whether a device
 * polled for this device code less than `devicePollIntervalSeconds` ago.
 */
export function deviceAnswers(
  provider: Provider,
  portalUrl: string,
  pollTooSoon: (deviceCode: string) => Promise<boolean>,
): void {
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as KoaContextWithOIDC).oidc;
    const body = ctx.body as Record<string, unknown> | undefined;
    if (!oidc || !body || typeof body !== 'object') return;
    if (oidc.route === 'device_authorization') {
      if (ctx.status === 200 && typeof body.user_code === 'string') {
        body.verification_uri = deviceVerificationUri(portalUrl);
        body.verification_uri_complete = deviceVerificationUri(portalUrl, body.user_code);
        body.interval = devicePollIntervalSeconds;
      } else if (
        body.error === 'invalid_request' &&
        /is not allowed for this client/.test(String(body.error_description))
      ) {
        body.error = 'unauthorized_client';
      }
      return;
    }
    if (
      oidc.route === 'token' &&
      body.error === 'authorization_pending' &&
      oidc.params?.grant_type === deviceCodeGrantType
    ) {
      if (await pollTooSoon(String(oidc.params.device_code))) {
        body.error = 'slow_down';
        body.error_description = 'you are polling too quickly and should back off at a reasonable rate';
      }
    }
  });
}
