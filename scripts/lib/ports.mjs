// The ports `npm start` listens on, each with the part that wants it and the variable that moves it, so that a port
// already taken is reported in Spanish ('El puerto 3001 (remoto auth) ya está en uso…') instead of Node's
// `listen EADDRINUSE`.
import { createServer } from 'node:net';

/** Every part of the layout (`readLayout`) that listens: `{ label, port, bind, variable }`. */
/** @param {import('./types.js').Layout} layout @param {import('./types.js').Env} [env] @returns {import('./types.js').ListeningPart[]} */
export function listeningParts(layout, env = process.env) {
  return [
    { label: 'API', port: layout.api.port, bind: env.API_BIND_HOST || layout.bind, variable: 'API_PORT' },
    ...layout.remotes.map((remote) => ({
      label: `remoto ${remote.name}`,
      port: remote.port,
      bind: layout.bind,
      variable: `REMOTE_${remote.name.toUpperCase()}_PORT`,
    })),
    { label: 'portal (host)', port: layout.host.port, bind: layout.bind, variable: 'HOST_PORT' },
  ];
}

/** What to tell a person whose part could not listen; undefined for errors that are not about the port. */
/** @param {import('./types.js').ListeningPart | undefined} part @param {any} error a listen error (code EADDRINUSE…) */
export function listenFailureMessage(part, error) {
  if (!part) return undefined;
  if (error?.code === 'EADDRINUSE') {
    return `El puerto ${part.port} (${part.label}) ya está en uso. Cierra el otro proceso o usa ${part.variable}=…`;
  }
  if (error?.code === 'EACCES') {
    return `No hay permiso para usar el puerto ${part.port} (${part.label}). Usa ${part.variable}= con un puerto mayor que 1023.`;
  }
  if (error?.code === 'EADDRNOTAVAIL') {
    return `La dirección ${part.bind} no es de esta máquina (${part.label}, puerto ${part.port}). Revisa BIND_HOST.`;
  }
  return undefined;
}

/** @param {number} port @param {string} bind @returns {Promise<NodeJS.ErrnoException | undefined>} */
function tryListen(port, bind) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error) => resolve(error));
    server.listen({ port, host: bind, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/**
 * Checks, before anything is built or started, that every part can listen on its port: answers the first problem
 * as a Spanish sentence, or undefined. Two parts configured on one port count as a problem too.
 */
/** @param {import('./types.js').ListeningPart[]} parts */
export async function checkPorts(parts) {
  const seen = new Map();
  for (const part of parts) {
    const other = seen.get(part.port);
    if (other) {
      return `${other.variable} y ${part.variable} usan el mismo puerto ${part.port} (${other.label} y ${part.label}). Cambia uno de los dos.`;
    }
    seen.set(part.port, part);
  }
  for (const part of parts) {
    const error = await tryListen(part.port, part.bind);
    if (error)
      return (
        listenFailureMessage(part, error) ?? `No se pudo usar el puerto ${part.port} (${part.label}): ${error.message}`
      );
  }
  return undefined;
}
