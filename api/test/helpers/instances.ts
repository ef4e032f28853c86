import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import { type Backend, buildTestAppPair } from './app.js';
import { portalUrl } from './oidc.js';
import { freePort } from './processes.js';

export interface TwoInstances {
  /** Each with its own connections and its own session memory, on one database. */
  a: FastifyInstance;
  b: FastifyInstance;
  /** The public address of both (A's origin, so also the provider's issuer), as behind a load balancer. */
  issuer: string;
  /** B's own address, where a request reaches B alone. */
  urlOfB: string;
  /** Closes both instances, then the database. */
  close(): Promise<void>;
}

/**
 * Two API instances on one database, each listening on a loopback port of its own under one public address, as
 * behind a load balancer. On PGlite both use the one database of this process (see `buildTestAppPair`).
 */
export async function twoInstances(backend: Backend, overrides: Partial<Config> = {}): Promise<TwoInstances> {
  const [portA, portB] = [await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${portA}`;
  const pair = await buildTestAppPair(
    { port: portA, apiPublicUrl: issuer, oidcIssuer: issuer, portalUrl, ...overrides },
    { backend },
  );
  try {
    await pair.a.listen({ port: portA, host: '127.0.0.1' });
    await pair.b.listen({ port: portB, host: '127.0.0.1' });
  } catch (error) {
    await pair.close();
    throw error;
  }
  return { a: pair.a, b: pair.b, issuer, urlOfB: `http://127.0.0.1:${portB}`, close: () => pair.close() };
}
