// Serves ONE built part of the portal on its own origin, as a deployment does with one machine (or CDN origin) per
// part: `node scripts/serve.mjs host|auth|apps|admin|calculator`. It reads the same variables as `npm start`
// (PUBLIC_API_URL, REMOTE_<NAME>_URL, REDIRECT_ALLOW_LIST…) for the runtime config and the page security headers;
// PORT overrides the part's port. Build first with `npm run build`. README, "Despliegue".
import { existsSync } from 'node:fs';
import path from 'node:path';
import { checkRedirectAllowList, loadDotEnv, readLayout, ROOT, runtimeConfig } from './lib/parts.mjs';
import { startStaticServer } from './lib/static-server.mjs';

const part = process.argv[2];
loadDotEnv();
const layout = readLayout();
const remote = layout.remotes.find((candidate) => candidate.name === part);
if (part !== 'host' && !remote) {
  console.error(`Uso: node scripts/serve.mjs host|${layout.remotes.map((candidate) => candidate.name).join('|')}`);
  process.exit(2);
}
try {
  // The list this part would hand to the browser: refused when it names hosts anyone can create.
  await checkRedirectAllowList(runtimeConfig(layout).redirectAllowList);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const dir = !remote ? path.join(ROOT, 'host/dist') : path.join(remote.absDir, 'dist');
if (!existsSync(path.join(dir, part === 'host' ? 'index.html' : 'remoteEntry.js'))) {
  console.error(`No hay una compilación en ${path.relative(ROOT, dir)}: ejecuta primero npm run build.`);
  process.exit(1);
}
const port = Number(process.env.PORT) || (!remote ? layout.host.port : remote.port);
const server = await startStaticServer({
  dir,
  port,
  bind: layout.bind,
  spa: part === 'host',
  runtimeConfig: runtimeConfig(layout),
});
console.log(`${part} servido en ${server.url}`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void server.close().then(() => process.exit(0)));
