// Just enough of a browser to walk a Google/Apple sign-in without one: follows redirects, keeps cookies per host,
// fills the test identity provider's login form and submits Apple's form_post page. Requests to the API go through
// `app.inject`; everything else (the identity provider) over real HTTP.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export interface Hop {
  method: 'GET' | 'POST';
  url: URL;
  form?: URLSearchParams;
}

interface Answer {
  status: number;
  location: string | null;
  setCookies: string[];
  body: string;
}

export interface OAuthBrowserOptions {
  app: FastifyInstance;
  /** The API's public origin as configured (its requests are injected). */
  apiUrl: string;
  /** The portal's origin: the walk ends on the first page there. */
  portalUrl: string;
}

export class OAuthBrowser {
  private readonly jar = new Map<string, Map<string, string>>();
  /**
   * The secret of this browser's tab, as the portal keeps it in sessionStorage when a sign-in starts: only its
   * SHA-256 (base64url) goes to the API with the start, the secret itself only in the exchange of the return's code.
   */
  readonly secret = randomBytes(32).toString('base64url');
  readonly binding = createHash('sha256').update(this.secret).digest('base64url');

  constructor(private readonly options: OAuthBrowserOptions) {}

  /** The cookies this browser holds for a host, by name. */
  cookies(host: string): Map<string, string> {
    let cookies = this.jar.get(host);
    if (!cookies) {
      cookies = new Map();
      this.jar.set(host, cookies);
    }
    return cookies;
  }

  private keep(url: URL, setCookies: string[]) {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const [name = '', ...value] = pair.split('=');
      const expired = attributes.some(
        (a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()),
      );
      if (expired) this.cookies(url.host).delete(name);
      else this.cookies(url.host).set(name, value.join('='));
    }
  }

  private async send(hop: Hop): Promise<Answer> {
    const cookie = [...this.cookies(hop.url.host)].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers: Record<string, string> = { accept: 'text/html', ...(cookie && { cookie }) };
    if (hop.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (hop.url.origin === this.options.apiUrl) {
      const response = await this.options.app.inject({
        method: hop.method,
        url: `${hop.url.pathname}${hop.url.search}`,
        headers,
        payload: hop.form?.toString(),
      });
      const setCookie = response.headers['set-cookie'];
      return {
        status: response.statusCode,
        location: (response.headers.location as string | undefined) ?? null,
        setCookies: setCookie === undefined ? [] : [setCookie].flat(),
        body: response.body,
      };
    }
    const response = await fetch(hop.url, {
      method: hop.method,
      headers,
      body: hop.form?.toString(),
      redirect: 'manual',
    });
    return {
      status: response.status,
      location: response.headers.get('location'),
      setCookies: response.headers.getSetCookie(),
      body: await response.text(),
    };
  }

  /**
   * Follows the hops from `hop` until the portal is reached (answers its URL) or a page needs the person (answers
   * the page). `intercept` sees every hop to the API's callback and may change it (a tampered state).
   */
  async walk(hop: Hop, intercept?: (hop: Hop) => Hop): Promise<{ portal: URL } | { page: string; url: URL }> {
    for (let step = 0; step < 20; step += 1) {
      if (hop.url.origin === this.options.portalUrl) return { portal: hop.url };
      if (intercept && hop.url.origin === this.options.apiUrl && hop.url.pathname.endsWith('/callback'))
        hop = intercept(hop);
      const answer = await this.send(hop);
      this.keep(hop.url, answer.setCookies);
      if (answer.status >= 300 && answer.status < 400 && answer.location) {
        hop = { method: 'GET', url: new URL(answer.location, hop.url) };
        continue;
      }
      const formPost = /<form method="post" action="([^"]+)">/.exec(answer.body);
      if (answer.status === 200 && formPost?.[1] && !answer.body.includes('name="account"')) {
        // Apple's answer: a page that posts its hidden fields to the callback at once.
        const form = new URLSearchParams();
        for (const [, name, value] of answer.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)) {
          form.set(name as string, decodeEntities(value as string));
        }
        hop = { method: 'POST', url: new URL(decodeEntities(formPost[1]), hop.url), form };
        continue;
      }
      if (answer.status !== 200)
        throw new Error(`${hop.method} ${hop.url.href}: ${answer.status} ${answer.body.slice(0, 300)}`);
      return { page: answer.body, url: hop.url };
    }
    throw new Error('demasiadas redirecciones');
  }

  /** Starts a sign-in at the API and answers on the provider's login page, or on the portal if it never got there. */
  async start(provider: 'google' | 'apple', redirectUrl?: string, bind = true) {
    const url = new URL(`${this.options.apiUrl}/auth/${provider}`);
    if (redirectUrl) url.searchParams.set('redirect_url', redirectUrl);
    if (bind) url.searchParams.set('binding', this.binding);
    return this.walk({ method: 'GET', url });
  }

  /** Signs in as `account` at the provider (or cancels) and follows everything back to the portal. */
  async signIn(
    provider: 'google' | 'apple',
    account: string | 'cancelar',
    options: { redirectUrl?: string; intercept?: (hop: Hop) => Hop; bind?: boolean } = {},
  ): Promise<URL> {
    const login = await this.start(provider, options.redirectUrl, options.bind ?? true);
    if ('portal' in login) return login.portal;
    const form = new URLSearchParams(account === 'cancelar' ? { action: 'cancel' } : { action: 'login', account });
    const end = await this.walk({ method: 'POST', url: login.url, form }, options.intercept);
    if ('page' in end) throw new Error(`la página del proveedor no siguió: ${end.page.slice(0, 300)}`);
    return end.portal;
  }
}

function decodeEntities(value: string): string {
  return value
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
