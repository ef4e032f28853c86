// The source scan that keeps ./react-router-dom.js (the shared router) exporting every name the portal imports.
const path = require('node:path');
const { ROUTER_SHIM } = require('./sharing');

/**
 * Every name a browser package's source (tests aside) imports from react-router(-dom) must be exported by
 * ./react-router-dom.js, or the page would get `undefined`: the build stops and says which names to add.
 */
function checkRouterShim() {
  const fs = require('node:fs');
  const root = path.join(__dirname, '../..');
  const exported = new Set(
    fs
      .readFileSync(ROUTER_SHIM, 'utf8')
      .match(/export \{([^}]*)\}/)?.[1]
      ?.match(/\w+/g),
  );
  const missing = new Set();
  const visit = (/** @type {string} */ entry) => {
    if (fs.statSync(entry).isDirectory()) {
      if (!/(^|[\\/])(node_modules|dist|__tests__|testing)$/.test(entry))
        for (const child of fs.readdirSync(entry)) visit(path.join(entry, child));
    } else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry)) {
      const source = fs.readFileSync(entry, 'utf8');
      for (const [, names = ''] of source.matchAll(/import\s+\{([^}]*)\}\s+from\s+'react-router(?:-dom)?'/g)) {
        for (const item of names
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n && !n.startsWith('type '))) {
          const name = item.split(/\s+as\s+/)[0] ?? item;
          if (!exported.has(name)) missing.add(name);
        }
      }
    }
  };
  const packages = fs.readdirSync(root).filter((d) => d === 'host' || d === 'shared' || d.startsWith('remote-'));
  for (const dir of packages) if (fs.existsSync(path.join(root, dir, 'src'))) visit(path.join(root, dir, 'src'));
  if (missing.size > 0) {
    throw new Error(`scripts/webpack/react-router-dom.js no exporta ${[...missing].join(', ')}: añádelo a su lista.`);
  }
}

module.exports = { checkRouterShim };
