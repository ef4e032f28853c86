// The server side of auth.bench.ts, in a process of its own so the load generator does not share its event loop:
// the whole API and, beside it in the same process, a bare Fastify route as the floor to compare against.
import Fastify from 'fastify';
import { startBenchApi } from './bench-api.js';

const { app: api, dispose } = await startBenchApi();
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));

const apiAddress = await api.listen({ host: '127.0.0.1', port: 0 });
const bareAddress = await bare.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ api: apiAddress, bare: bareAddress })}\n`);

process.once('SIGTERM', async () => {
  await Promise.all([dispose(), bare.close()]);
  process.exit(0);
});
