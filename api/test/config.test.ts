import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigError, defaultCorsOrigins, loadConfig } from '../src/config.js';
import { loadEnvFile } from '../src/lib/env-file.js';
import { compiledApi } from './helpers/compiled-api.js';
import { generateEcKeyPem } from './helpers/keys.js';

describe('configuration', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, undefined);
    assert.match(config.dataDir, /\.data$/);
    assert.deepEqual(config.corsOrigins, defaultCorsOrigins);
    assert.ok(config.corsOrigins.includes('http://localhost:8080'));
    assert.ok(config.corsOrigins.includes('http://127.0.0.1:8080'));
    assert.equal(config.tokenTtlSeconds, 86400);
    assert.equal(config.logLevel, 'info');
  });

  it('reads the variables, lower-casing the admin email and trimming the CORS list', () => {
    const config = loadConfig({
      PORT: '4000',
      DATABASE_URL: 'postgres://app@db/portal',
      ADMIN_EMAIL: ' Jefe@Empresa.com ',
      CORS_ORIGINS: 'https://portal.example.com, http://localhost:8080/',
      TOKEN_TTL_SECONDS: '3600',
    });
    assert.equal(config.port, 4000);
    assert.equal(config.databaseUrl, 'postgres://app@db/portal');
    assert.equal(config.adminEmail, 'jefe@empresa.com');
    assert.deepEqual(config.corsOrigins, ['https://portal.example.com', 'http://localhost:8080']);
    assert.equal(config.tokenTtlSeconds, 3600);
  });

  it('reads the mail, portal and Redis settings, with the embedded defaults when unset', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.smtpUrl, undefined);
    assert.equal(defaults.redisUrl, undefined);
    assert.equal(defaults.portalUrl, 'http://localhost:8080');
    assert.equal(defaults.mailFrom, 'Portal de aplicaciones <no-reply@portal.local>');
    assert.equal(defaults.authRateLimitPerMinute, 30);
    const config = loadConfig({
      SMTP_URL: 'smtp://usuario:clave@correo.example.com:587',
      MAIL_FROM: 'Empresa <no-reply@empresa.com>',
      PORTAL_URL: 'https://portal.empresa.com/',
      REDIS_URL: 'redis://cache:6379/2',
      REDIS_KEY_PREFIX: 'prod:',
    });
    assert.equal(config.smtpUrl, 'smtp://usuario:clave@correo.example.com:587');
    assert.equal(config.mailFrom, 'Empresa <no-reply@empresa.com>');
    assert.equal(config.portalUrl, 'https://portal.empresa.com');
    assert.equal(config.redisUrl, 'redis://cache:6379/2');
    assert.equal(config.redisKeyPrefix, 'prod:');
  });

  it('reads the Google and Apple clients (all of a group or none), the public API address and the proxies to trust', () => {
    const defaults = loadConfig({ PORT: '4000' });
    assert.equal(defaults.google, undefined);
    assert.equal(defaults.apple, undefined);
    assert.equal(defaults.apiPublicUrl, 'http://localhost:4000');
    assert.deepEqual(defaults.redirectAllowList, []);
    assert.equal(defaults.trustProxy, false);
    const config = loadConfig({
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'secreto',
      APPLE_CLIENT_ID: 'com.empresa.portal',
      APPLE_TEAM_ID: 'EQUIPO1234',
      APPLE_KEY_ID: 'CLAVE12345',
      APPLE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nABC\\n-----END PRIVATE KEY-----',
      API_PUBLIC_URL: 'https://api.empresa.com/',
      REDIRECT_ALLOW_LIST: 'https://socio.example.com, betopro://auth',
      TRUST_PROXY: '10.0.0.0/8,192.168.1.4',
    });
    assert.deepEqual(config.google, {
      clientId: 'id.apps.googleusercontent.com',
      clientSecret: 'secreto',
      issuer: 'https://accounts.google.com',
    });
    assert.equal(config.apple?.issuer, 'https://appleid.apple.com');
    assert.equal(config.apple?.privateKey, '-----BEGIN PRIVATE KEY-----\nABC\n-----END PRIVATE KEY-----');
    assert.equal(config.apiPublicUrl, 'https://api.empresa.com');
    assert.deepEqual(config.redirectAllowList, ['https://socio.example.com', 'betopro://auth']);
    assert.deepEqual(config.trustProxy, ['10.0.0.0/8', '192.168.1.4']);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  });

  const invalid: Array<[string, Record<string, string>]> = [
    ['GOOGLE_CLIENT_SECRET', { GOOGLE_CLIENT_ID: 'solo-el-id' }],
    ['APPLE_PRIVATE_KEY', { APPLE_CLIENT_ID: 'a', APPLE_TEAM_ID: 'b', APPLE_KEY_ID: 'c' }],
    [
      'APPLE_PRIVATE_KEY',
      { APPLE_CLIENT_ID: 'a', APPLE_TEAM_ID: 'b', APPLE_KEY_ID: 'c', APPLE_PRIVATE_KEY: 'no-es-pem' },
    ],
    [
      'GOOGLE_ISSUER',
      { GOOGLE_CLIENT_ID: 'a', GOOGLE_CLIENT_SECRET: 'b', GOOGLE_ISSUER: 'http://accounts.example.com' },
    ],
    ['API_PUBLIC_URL', { API_PUBLIC_URL: 'api.empresa.com' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'el-balanceador' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'true' }],
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db/portal' }],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'no-es-un-email' }],
    ['ADMIN_PASSWORD', { ADMIN_PASSWORD: '123' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://portal.example.com/ruta' }],
    ['TOKEN_TTL_SECONDS', { TOKEN_TTL_SECONDS: '-5' }],
    ['JWT_PRIVATE_KEY', { JWT_PRIVATE_KEY: 'secreto' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['SMTP_URL', { SMTP_URL: 'correo.example.com:587' }],
    ['REDIS_URL', { REDIS_URL: '127.0.0.1:6379' }],
    ['MAIL_FROM', { MAIL_FROM: 'Portal sin dirección' }],
    ['PORTAL_URL', { PORTAL_URL: 'portal.example.com' }],
    ['AUTH_RATE_LIMIT_PER_MINUTE', { AUTH_RATE_LIMIT_PER_MINUTE: '0' }],
    ['PARTNER_TOKEN_TTL_SECONDS', { PARTNER_TOKEN_TTL_SECONDS: '10' }],
  ];
  for (const [variable, env] of invalid) {
    it(`refuses an invalid ${variable} (${Object.values(env)[0]}) with an error naming it`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: Error) => error.message.includes(variable),
      );
    });
  }

  describe('redirect allow-list', () => {
    /** What `npm start` and `scripts/serve.mjs` use (plain JavaScript, so loaded by address). */
    const partsModule = new URL('../../scripts/lib/parts.mjs', import.meta.url).href;
    const refused = [
      [
        'a dev-tunnel wildcard (devtunnels.ms is off the Public Suffix List)',
        'https://*.devtunnels.ms',
        'devtunnels.ms',
      ],
      ['a dev-tunnel region wildcard', 'https://*.euw.devtunnels.ms', 'euw.devtunnels.ms'],
      ['a private-section suffix (ngrok)', 'https://*.ngrok-free.app', 'ngrok-free.app'],
      ['a private-section suffix (Vercel)', 'https://*.vercel.app', 'vercel.app'],
      ['a private-section suffix (GitHub Pages)', 'https://*.github.io', 'github.io'],
      ['an ICANN suffix', 'https://*.co.uk', 'co.uk'],
    ];
    for (const [name, entry, base] of refused) {
      it(`refuses ${name} at start, naming the entry in Spanish`, () => {
        assert.throws(
          () => loadConfig({ REDIRECT_ALLOW_LIST: `https://portal.example.com, ${entry}, betopro://auth` }),
          (error: Error) =>
            error.message.startsWith('Configuración inválida: REDIRECT_ALLOW_LIST contiene') &&
            error.message.includes(`"${entry}"`) &&
            error.message.includes(`"${base}"`) &&
            error.message.includes('cualquiera puede crear direcciones'),
        );
      });
    }

    it("accepts an exact tunnel host and a wildcard under the portal's own host", () => {
      const entries = [
        'https://abc123-8080.euw.devtunnels.ms',
        'https://*.portal.example.com',
        'https://mi-app.vercel.app',
      ];
      assert.deepEqual(
        loadConfig({ REDIRECT_ALLOW_LIST: entries.join(','), PORTAL_URL: 'https://portal.example.com' })
          .redirectAllowList,
        entries,
      );
    });

    describe('wildcards and trailing dots', () => {
      const portal = { PORTAL_URL: 'https://portal.example.com', API_PUBLIC_URL: 'https://api.portal.example.com' };
      const refusedAtStart = (env: Record<string, string>, variable: string, ...parts: string[]) =>
        assert.throws(
          () => loadConfig(env),
          (error: Error) =>
            error instanceof ConfigError &&
            error.message.startsWith(`Configuración inválida: ${variable} contiene`) &&
            parts.every((part) => error.message.includes(part)),
          `expected ${JSON.stringify(env)} to be refused`,
        );

      for (const entry of [
        'https://*.devtunnels.ms.',
        'https://*.portal.example.com.',
        'https://mi-tunel.devtunnels.ms.',
      ]) {
        it(`refuses ${entry} (a trailing dot) at start, naming the variable`, () => {
          refusedAtStart(
            { ...portal, REDIRECT_ALLOW_LIST: entry },
            'REDIRECT_ALLOW_LIST',
            `"${entry}"`,
            'termina en punto',
          );
        });
      }

      for (const base of [
        'app.github.dev',
        'loca.lt',
        'serveo.net',
        'lhr.life',
        'pinggy.link',
        'zrok.io',
        'gitpod.io',
        'glitch.me',
        'amazonaws.com',
      ]) {
        it(`refuses https://*.${base} at start unless REDIRECT_WILDCARD_DOMAINS names it`, () => {
          const entry = `https://*.${base}`;
          refusedAtStart(
            { ...portal, REDIRECT_ALLOW_LIST: `https://portal.example.com,${entry}` },
            'REDIRECT_ALLOW_LIST',
            `"${entry}"`,
            'REDIRECT_WILDCARD_DOMAINS',
          );
          const vouched = loadConfig({ ...portal, REDIRECT_ALLOW_LIST: entry, REDIRECT_WILDCARD_DOMAINS: base });
          assert.deepEqual(vouched.redirectAllowList, [entry]);
        });
      }

      it('accepts a wildcard under a domain named in REDIRECT_WILDCARD_DOMAINS, whatever the portal address', () => {
        const config = loadConfig({
          REDIRECT_ALLOW_LIST: 'https://*.apps.example.com,https://*.socio.example.com',
          REDIRECT_WILDCARD_DOMAINS: ' apps.example.com , socio.example.com ',
        });
        assert.deepEqual(config.redirectAllowList, ['https://*.apps.example.com', 'https://*.socio.example.com']);
        assert.deepEqual(config.redirectWildcardDomains, ['apps.example.com', 'socio.example.com']);
      });

      it('refuses a public suffix or a dotted name in REDIRECT_WILDCARD_DOMAINS, and the override never rescues a suffix', () => {
        refusedAtStart(
          { REDIRECT_WILDCARD_DOMAINS: 'vercel.app' },
          'REDIRECT_WILDCARD_DOMAINS',
          '"vercel.app"',
          'sufijo público',
        );
        refusedAtStart(
          { REDIRECT_WILDCARD_DOMAINS: 'apps.example.com.' },
          'REDIRECT_WILDCARD_DOMAINS',
          '"apps.example.com."',
          'termina en punto',
        );
      });
    });

    it('refuses an entry that is no address, and a wildcard in the middle of a host', () => {
      assert.throws(
        () => loadConfig({ REDIRECT_ALLOW_LIST: 'portal.example.com' }),
        /"portal\.example\.com", que no es una dirección válida/,
      );
      assert.throws(
        () => loadConfig({ REDIRECT_ALLOW_LIST: 'https://socio*.example.com' }),
        /el comodín solo puede ir al principio/,
      );
    });

    it("npm start's default list names only the product's domains, its apps and deep links, and passes the same check", async () => {
      const parts = await import(partsModule);
      const defaults: string[] = parts.DEFAULT_REDIRECT_ALLOW_LIST;
      assert.ok(!defaults.some((entry) => entry.includes('devtunnels')), 'no dev-tunnel wildcard among the defaults');
      assert.ok(
        defaults.every((entry) =>
          /^https:\/\/(\*\.)?portal\.example\.com$|^https:\/\/(controlmax360|betopro|tx30)\.example\.com$|^(betopro|controlmax):\/\/auth/.test(
            entry,
          ),
        ),
      );
      // npm start passes the default list with its own wildcard domain (the product's placeholder domain).
      const env = parts.apiEnvironment(parts.readLayout({}), {});
      assert.equal(env.REDIRECT_WILDCARD_DOMAINS, 'portal.example.com');
      assert.deepEqual(loadConfig(env).redirectAllowList, defaults);
      await parts.checkRedirectAllowList(defaults, {});
    });

    it('npm start and scripts/serve.mjs refuse the list before serving it to the browser', async () => {
      const parts = await import(partsModule);
      await assert.rejects(
        parts.checkRedirectAllowList(['https://*.devtunnels.ms']),
        /Configuración inválida: REDIRECT_ALLOW_LIST contiene "https:\/\/\*\.devtunnels\.ms"/,
      );
      await assert.rejects(
        parts.checkRedirectAllowList(['https://*.devtunnels.ms.'], {}),
        /Configuración inválida: REDIRECT_ALLOW_LIST contiene "https:\/\/\*\.devtunnels\.ms\.": .*termina en punto/,
      );
      await assert.rejects(
        parts.checkRedirectAllowList(['https://*.loca.lt'], {}),
        /REDIRECT_ALLOW_LIST contiene "https:\/\/\*\.loca\.lt".*REDIRECT_WILDCARD_DOMAINS/,
      );
      await assert.rejects(
        parts.checkRedirectAllowList(['https://portal.example.com'], { REDIRECT_WILDCARD_DOMAINS: 'github.io' }),
        /Configuración inválida: REDIRECT_WILDCARD_DOMAINS contiene "github\.io"/,
      );
      await parts.checkRedirectAllowList(['https://*.loca.lt'], { REDIRECT_WILDCARD_DOMAINS: 'loca.lt' });
      await parts.checkRedirectAllowList(['https://*.portal.empresa.com'], {
        PUBLIC_PORTAL_URL: 'https://portal.empresa.com',
        REDIRECT_WILDCARD_DOMAINS: '',
      });
      const served = spawnSync(process.execPath, ['scripts/serve.mjs', 'host'], {
        cwd: new URL('../..', import.meta.url),
        env: { ...process.env, REDIRECT_ALLOW_LIST: 'https://portal.example.com,https://*.ngrok-free.app', PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(served.status, 1);
      assert.match(served.stderr, /REDIRECT_ALLOW_LIST contiene "https:\/\/\*\.ngrok-free\.app"/);
    });
  });

  describe('a .env file', () => {
    it('fills what the environment lacks, never what it has, and is optional', () => {
      const dir = mkdtempSync(join(tmpdir(), 'portal-env-'));
      const file = join(dir, '.env');
      writeFileSync(file, '# comentario\nPORTAL_TEST_FROM_FILE=desde-archivo\nPORTAL_TEST_SET=desde-archivo\n');
      process.env.PORTAL_TEST_SET = 'del-entorno';
      try {
        assert.equal(loadEnvFile(join(dir, 'no-existe.env')), false);
        assert.equal(process.env.PORTAL_TEST_FROM_FILE, undefined);
        assert.equal(loadEnvFile(file), true);
        assert.equal(process.env.PORTAL_TEST_FROM_FILE, 'desde-archivo');
        assert.equal(process.env.PORTAL_TEST_SET, 'del-entorno');
      } finally {
        delete process.env.PORTAL_TEST_FROM_FILE;
        delete process.env.PORTAL_TEST_SET;
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('second factor and passkeys', () => {
  it('ADMIN_SECOND_FACTOR is required unless set to optional', () => {
    assert.equal(loadConfig({}).adminSecondFactor, 'required');
    assert.equal(loadConfig({ ADMIN_SECOND_FACTOR: 'required' }).adminSecondFactor, 'required');
    assert.equal(loadConfig({ ADMIN_SECOND_FACTOR: 'optional' }).adminSecondFactor, 'optional');
  });

  it('refuses any other ADMIN_SECOND_FACTOR with a Spanish message', () => {
    for (const value of ['no', 'OPTIONAL', 'off']) {
      assert.throws(
        () => loadConfig({ ADMIN_SECOND_FACTOR: value }),
        (error: Error) =>
          error instanceof ConfigError &&
          error.message ===
            `Configuración inválida: ADMIN_SECOND_FACTOR debe ser required u optional (recibido "${value}")`,
      );
    }
  });

  it("uses 'localhost' as relying party for a portal on 127.0.0.1, with the localhost origin", () => {
    const { webauthn } = loadConfig({ PORTAL_URL: 'http://127.0.0.1:8080' });
    assert.equal(webauthn.rpId, 'localhost');
    assert.deepEqual(webauthn.origins, ['http://localhost:8080']);
    assert.equal(webauthn.rpName, 'Portal de Aplicaciones');
    assert.equal(loadConfig({}).webauthn.rpId, 'localhost', 'the default PORTAL_URL too');
  });

  it("uses the portal's host as relying party and its origin", () => {
    const { webauthn } = loadConfig({ PORTAL_URL: 'https://portal.example.com' });
    assert.equal(webauthn.rpId, 'portal.example.com');
    assert.deepEqual(webauthn.origins, ['https://portal.example.com']);
    const named = loadConfig({ PORTAL_URL: 'https://portal.example.com', WEBAUTHN_RP_NAME: 'Empresa' }).webauthn;
    assert.equal(named.rpName, 'Empresa');
  });

  it('accepts origins on the relying party ID or its subdomains', () => {
    const { webauthn } = loadConfig({
      PORTAL_URL: 'https://portal.example.com',
      WEBAUTHN_RP_ID: 'Example.com',
      WEBAUTHN_ORIGINS: 'https://portal.example.com, https://example.com',
    });
    assert.equal(webauthn.rpId, 'example.com');
    assert.deepEqual(webauthn.origins, ['https://portal.example.com', 'https://example.com']);
  });

  it('refuses an origin outside the relying party ID, and an RP ID that is no domain', () => {
    assert.throws(
      () => loadConfig({ PORTAL_URL: 'https://portal.example.com', WEBAUTHN_ORIGINS: 'https://portal.example.net' }),
      (error: Error) =>
        error instanceof ConfigError &&
        error.message.includes('WEBAUTHN_ORIGINS') &&
        error.message.includes('cuyo dominio no es portal.example.com'),
    );
    assert.throws(
      () => loadConfig({ PORTAL_URL: 'https://portal.example.com', WEBAUTHN_RP_ID: 'otro.example.com' }),
      (error: Error) => error instanceof ConfigError && error.message.includes('WEBAUTHN_ORIGINS'),
      'the default origin (PORTAL_URL) is checked against a configured RP ID too',
    );
    assert.throws(
      () => loadConfig({ WEBAUTHN_RP_ID: 'https://portal.example.com' }),
      (error: Error) => error instanceof ConfigError && error.message.includes('WEBAUTHN_RP_ID'),
    );
  });
});

describe('a production start (NODE_ENV=production)', () => {
  const production = {
    NODE_ENV: 'production',
    JWT_PRIVATE_KEY: generateEcKeyPem(),
    SMTP_URL: 'smtp://portal:clave@correo.example.com:587',
    CORS_ORIGINS: 'https://portal.example.com, https://auth.example.com',
  };
  const refusal = {
    JWT_PRIVATE_KEY:
      'Configuración inválida: JWT_PRIVATE_KEY falta: en producción la clave de firma no se genera en DATA_DIR (cambiaría al perder el disco y cada instancia tendría la suya, cerrando las sesiones); créala con openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256',
    SMTP_URL:
      'Configuración inválida: SMTP_URL falta: en producción los correos (y sus códigos) no se escriben en el registro de la API; indica el servidor de correo (smtp://usuario:clave@correo.example.com:587)',
    ADMIN_SECOND_FACTOR:
      'Configuración inválida: ADMIN_SECOND_FACTOR no admite optional en producción: un administrador debe probar un segundo factor (quita la variable o usa required)',
    CORS_ORIGINS:
      'Configuración inválida: CORS_ORIGINS falta: en producción indica los orígenes del portal y de cada remoto (https://portal.example.com,https://auth.example.com,…); los de localhost solo sirven en esta máquina',
  };
  const refusedWith = (env: Record<string, string>, lines: string[]) =>
    assert.throws(
      () => loadConfig(env),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.message.split('\n'), lines);
        return true;
      },
    );

  it('starts with a signing key, a mail server and the browser origins set, the second factor required', () => {
    const config = loadConfig(production);
    assert.equal(config.adminSecondFactor, 'required');
    assert.deepEqual(config.corsOrigins, ['https://portal.example.com', 'https://auth.example.com']);
    assert.equal(config.smtpUrl, production.SMTP_URL);
    assert.ok(config.jwtPrivateKey?.includes('-----BEGIN PRIVATE KEY-----'));
  });

  it('refuses every unsafe development default at once, one Spanish line naming each variable', () => {
    refusedWith({ NODE_ENV: 'production', ADMIN_SECOND_FACTOR: 'optional' }, [
      refusal.JWT_PRIVATE_KEY,
      refusal.SMTP_URL,
      refusal.ADMIN_SECOND_FACTOR,
      refusal.CORS_ORIGINS,
    ]);
  });

  it('refuses each one alone, empty counting as unset', () => {
    for (const variable of ['JWT_PRIVATE_KEY', 'SMTP_URL', 'CORS_ORIGINS'] as const) {
      refusedWith({ ...production, [variable]: '' }, [refusal[variable]]);
    }
    refusedWith({ ...production, CORS_ORIGINS: ' , ' }, [refusal.CORS_ORIGINS]);
    refusedWith({ ...production, ADMIN_SECOND_FACTOR: 'optional' }, [refusal.ADMIN_SECOND_FACTOR]);
  });

  it('reports a malformed value together with the refusals', () => {
    refusedWith({ ...production, SMTP_URL: '', LOG_LEVEL: 'ruidoso' }, [
      'Configuración inválida: LOG_LEVEL debe ser uno de fatal, error, warn, info, debug, trace, silent (recibido "ruidoso")',
      refusal.SMTP_URL,
    ]);
  });

  it('leaves the development defaults alone outside production (npm start, the tests)', () => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      const config = loadConfig({ ...(NODE_ENV ? { NODE_ENV } : {}), ADMIN_SECOND_FACTOR: 'optional' });
      assert.equal(config.jwtPrivateKey, undefined);
      assert.equal(config.smtpUrl, undefined);
      assert.deepEqual(config.corsOrigins, defaultCorsOrigins);
    }
  });

  it('the API process prints the lines and exits 1 before listening or creating its data directory', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'portal-config-production-')), 'data');
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0' };
      for (const name of ['JWT_PRIVATE_KEY', 'SMTP_URL', 'CORS_ORIGINS', 'ADMIN_SECOND_FACTOR']) delete env[name];
      const started = spawnSync(process.execPath, [compiledApi('server')], {
        cwd: new URL('..', import.meta.url),
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
      assert.equal(started.status, 1, started.stdout + started.stderr);
      assert.deepEqual(started.stderr.trim().split('\n'), [
        refusal.JWT_PRIVATE_KEY,
        refusal.SMTP_URL,
        refusal.CORS_ORIGINS,
      ]);
      assert.equal(started.stdout, '');
      assert.equal(existsSync(dataDir), false);
    } finally {
      rmSync(dirname(dataDir), { recursive: true, force: true });
    }
  });
});
