// The server side of auth.bench.ts and oidc.bench.ts, in a process of its own so the load generator does not share
// its event loop: the whole API and, beside it in the same process, a bare Fastify route as the floor to compare
// against, and the reference a signed-in read is held to: a Fastify route behind helmet and CORS that finds its bearer
// token in a Map and answers the JSON kept for it (the bench puts a token and its answer there first). The API listens
// on a port chosen first, so its public address (the OpenID Connect issuer) is its own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import cors from '@fastify/cors';
import Fastify from 'fastify';
import helmet from 'helmet';
import { startBenchApi } from './bench-api.js';

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address() as { port: number };
    probe.close(() => resolve(free));
  });
});
const issuer = `http://127.0.0.1:${port}`;
const { app: api, dispose } = await startBenchApi({ PORT: String(port), API_PUBLIC_URL: issuer, OIDC_ISSUER: issuer });
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));

const reference = Fastify({ logger: false });
const secured = helmet();
reference.addHook('onRequest', (request, reply, done) => {
  secured(request.raw as IncomingMessage, reply.raw as ServerResponse, (error) => done(error as Error | undefined));
});
await reference.register(cors, { origin: ['http://localhost:8080'], credentials: true });
const answers = new Map<string, unknown>();
reference.put<{ Body: { token: string; answer: unknown } }>('/tokens', async (request, reply) => {
  answers.set(request.body.token, request.body.answer);
  return reply.code(204).send();
});
reference.get('/user', async (request, reply) => {
  const answer = answers.get(request.headers.authorization?.slice('Bearer '.length) ?? '');
  return answer ?? reply.code(401).send({ statusCode: 401, message: 'Token inválido' });
});

const apiAddress = await api.listen({ host: '127.0.0.1', port });
const bareAddress = await bare.listen({ host: '127.0.0.1', port: 0 });
const referenceAddress = await reference.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ api: apiAddress, bare: bareAddress, reference: referenceAddress })}\n`);

process.once('SIGTERM', async () => {
  await Promise.all([dispose(), bare.close(), reference.close()]);
  process.exit(0);
});
