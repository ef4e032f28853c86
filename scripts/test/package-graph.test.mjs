// The import graph between the repository's parts (the npm workspaces and scripts/), read from the sources: no part
// imports another that imports it back, the API never imports the browser's @portal/shared, @portal/contracts stays
// free of React, the browser and Node, and @portal/shared reaches the API for types only.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../lib/parts.mjs';

/** @type {string[]} */
const WORKSPACES = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).workspaces;
const PARTS = [...WORKSPACES, 'scripts'];
/** `@portal/api` → `api`: each workspace by its package name. */
const BY_NAME = new Map(
  WORKSPACES.map((dir) => [JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')).name, dir]),
);
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'test-results', 'playwright-report', 'coverage']);
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;
// Static and dynamic imports, re-exports and require(); `import type` / `export type` are marked type-only.
const SPECIFIER =
  /\b(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** @typedef {{ from: string, to: string, file: string, specifier: string, typeOnly: boolean }} Edge */

/** Every import of one part that lands in another part (a package name or a relative path leaving the folder). */
/** @param {string} part @returns {Edge[]} */
function edgesOf(part) {
  return sourceFiles(path.join(ROOT, part)).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(SPECIFIER)].flatMap((match) => {
      const specifier = /** @type {string} */ (match[2] ?? match[3] ?? match[4]);
      let to;
      if (specifier.startsWith('.')) {
        to = path.relative(ROOT, path.resolve(path.dirname(file), specifier)).split(path.sep)[0];
      } else {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        to = BY_NAME.get(name);
      }
      if (!to || to === part || !PARTS.includes(to)) return [];
      return [{ from: part, to, file: path.relative(ROOT, file), specifier, typeOnly: Boolean(match[1]) }];
    });
  });
}

const edges = PARTS.flatMap(edgesOf);

test('no part of the repository imports a part that imports it back', () => {
  /** @type {Map<string, Set<string>>} */
  const graph = new Map(PARTS.map((part) => [part, new Set()]));
  for (const edge of edges) graph.get(edge.from)?.add(edge.to);
  /** @type {string[][]} */
  const cycles = [];
  /** @param {string} part @param {string[]} trail */
  const visit = (part, trail) => {
    if (trail.includes(part)) {
      cycles.push([...trail.slice(trail.indexOf(part)), part]);
      return;
    }
    for (const next of graph.get(part) ?? []) visit(next, [...trail, part]);
  };
  for (const part of PARTS) visit(part, []);
  assert.deepEqual([...new Set(cycles.map((cycle) => cycle.join(' → ')))], []);
  // The graph is read at all: the known edges are found.
  assert.ok(graph.get('api')?.has('contracts'), 'api → contracts');
  assert.ok(graph.get('shared')?.has('contracts'), 'shared → contracts');
  assert.ok(graph.get('scripts')?.has('contracts'), 'scripts → contracts');
});

test('the API never imports the browser packages', () => {
  const browser = new Set(['shared', 'host', ...WORKSPACES.filter((dir) => dir.startsWith('remote-'))]);
  assert.deepEqual(
    edges
      .filter((edge) => edge.from === 'api' && browser.has(edge.to))
      .map((edge) => `${edge.file}: ${edge.specifier}`),
    [],
  );
});

test('@portal/shared reaches the API for its types only', () => {
  assert.deepEqual(
    edges
      .filter((edge) => edge.from === 'shared' && edge.to === 'api' && !edge.typeOnly)
      .map((edge) => `${edge.file}: ${edge.specifier}`),
    [],
  );
});

test('@portal/contracts imports nothing but its own files and tldts: no React, no browser or Node module', () => {
  const outside = sourceFiles(path.join(ROOT, 'contracts/src'))
    .filter((file) => !file.includes(`${path.sep}__tests__${path.sep}`))
    .flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
        .map((match) => /** @type {string} */ (match[2] ?? match[3] ?? match[4]))
        .filter((specifier) => !specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== 'tldts')
        .map((specifier) => `${path.relative(ROOT, file)}: ${specifier}`),
    );
  assert.deepEqual(outside, []);
});
