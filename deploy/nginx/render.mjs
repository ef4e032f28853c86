// Writes nginx's configuration for the portal from portal.conf.template and a site file (site.example.json):
//   node deploy/nginx/render.mjs site.json > /etc/nginx/nginx.conf && nginx -t
// `{{a.b}}` takes the site's value at that path; a line whose value is a list is written once per item; a line whose
// value is null (or under a null group, or an empty list) is left out; a path the site lacks stops it, named.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const templatePath = fileURLToPath(new URL('portal.conf.template', import.meta.url));

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

/** @param {unknown} site @param {string} key @returns {unknown} */
function lookUp(site, key) {
  /** @type {unknown} */
  let value = site;
  for (const part of key.split('.')) {
    // Under a null group (`"tls": null`) every value is null: its lines are left out.
    if (value === null) return null;
    if (typeof value !== 'object' || !(part in value))
      throw new Error(`Falta «${key}» en el archivo del sitio (deploy/nginx/site.example.json muestra cada valor).`);
    value = /** @type {Record<string, unknown>} */ (value)[part];
  }
  return value;
}

/** @param {unknown} value @param {string} key */
function text(value, key) {
  if (typeof value === 'string' || typeof value === 'number') {
    const written = String(value);
    // A value ends at a line's end or a semicolon in nginx: one that carries either would write directives of its own.
    if (/[;{}"'\n\r]/.test(written))
      throw new Error(`«${key}» no puede contener ; { } comillas ni saltos de línea: ${JSON.stringify(written)}`);
    return written;
  }
  throw new Error(`«${key}» debe ser un texto, un número, una lista o null (recibido ${JSON.stringify(value)})`);
}

/**
 * The configuration for `site` (the parsed site file).
 * @param {unknown} site
 * @param {string} [template]
 * @returns {string}
 */
export function renderNginxConfig(site, template = readFileSync(templatePath, 'utf8')) {
  const lines = [];
  for (const line of template.split('\n')) {
    const keys = [...line.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
    const values = new Map(keys.map((key) => [key, lookUp(site, key)]));
    const lists = [...values].filter(([, value]) => Array.isArray(value));
    if (lists.length > 1)
      throw new Error(`Una línea de la plantilla nombra dos listas (${lists.map(([key]) => key).join(', ')})`);
    if ([...values.values()].some((value) => value === null || (Array.isArray(value) && value.length === 0))) continue;
    const [listKey, items] = lists[0] ?? [undefined, [undefined]];
    for (const item of /** @type {unknown[]} */ (items))
      lines.push(line.replace(PLACEHOLDER, (_match, key) => text(key === listKey ? item : values.get(key), key)));
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('Uso: node deploy/nginx/render.mjs <sitio.json> > nginx.conf');
    process.exit(2);
  }
  try {
    process.stdout.write(renderNginxConfig(JSON.parse(readFileSync(file, 'utf8'))));
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(1);
  }
}
