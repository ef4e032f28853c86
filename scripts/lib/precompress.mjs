// Writes a brotli (.br) and a gzip (.gz) copy beside each text file of a build, once, at build time: the static server
// (sirv) sends the copy the browser accepts, with its length, ETag and ranges, and never compresses per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

// Source maps are left out: only the browser's developer tools fetch them, and they are the largest files.
const COMPRESSIBLE = new Set(['.html', '.js', '.json', '.css', '.svg', '.txt']);
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 512;

/** @param {string} dir @returns {string[]} */
function filesIn(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesIn(file) : [file];
  });
}

/** @param {string} dir a build's output folder; returns how many files got compressed copies */
export function precompress(dir) {
  return precompressFiles(filesIn(dir));
}

/** @param {string[]} files; returns how many of them got compressed copies */
export function precompressFiles(files) {
  let count = 0;
  for (const file of files) {
    if (!COMPRESSIBLE.has(path.extname(file)) || statSync(file).size < MIN_BYTES) continue;
    const copies = compressedCopies(readFileSync(file));
    writeFileSync(`${file}.br`, copies.br);
    writeFileSync(`${file}.gz`, copies.gzip);
    count += 1;
  }
  return count;
}

/**
 * The brotli and gzip copies of `raw`, at the highest settings: the build's files here, and the runtime config the
 * static server writes at start-up (scripts/lib/static-server.mjs).
 * @param {Buffer | string} raw @returns {{ br: Buffer, gzip: Buffer }}
 */
export function compressedCopies(raw) {
  const bytes = Buffer.from(raw);
  return {
    br: zlib.brotliCompressSync(bytes, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
    gzip: zlib.gzipSync(bytes, { level: 9 }),
  };
}
