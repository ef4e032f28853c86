// docs/configuration.md and `.env.example` cannot drift from the code. In scope: every environment variable the
// portal's own code reads (the API and its admin command, the benches and test helpers, the scripts, the browser
// suite's support): the API's schema of its variables (api/src/config/environment.ts), and the others found by
// scanning the sources below. docs/configuration.md has a row for each of them and for
// nothing else; `.env.example` lists every variable an operator sets (the rows of the launcher's and the API's
// sections) and nothing the code does not read. The tests' and benchmarks' variables may be listed there, need not be.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { environment } from '../../api/src/config/environment.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the portal's own code reads its environment: the API, its benches and test helpers, the scripts, e2e. */
const SOURCES = [
  'api/src',
  'api/bench',
  'api/test',
  'contracts/src',
  'scripts',
  'e2e/support',
  'e2e/playwright.config.ts',
];
/** Folders that hold no source of ours, and the scripts' own tests (they set variables for the code they run). */
const SKIPPED = new Set(['node_modules', 'dist', '.data', 'test-results', 'playwright-report', 'scripts/test']);

/** Read but not the portal's to document: the system's, Playwright's worker index, and config.test.ts's fixtures. */
const NOT_OURS = new Set(['PATH', 'HOME', 'TEST_WORKER_INDEX', 'PORTAL_TEST_SET', 'PORTAL_TEST_FROM_FILE']);

/** @param {string} relative @returns {Generator<string>} */
function* sourceFiles(relative) {
  const absolute = path.join(ROOT, relative);
  if (!existsSync(absolute) || SKIPPED.has(relative)) return;
  if (statSync(absolute).isFile()) {
    yield relative;
    return;
  }
  for (const entry of readdirSync(absolute, { withFileTypes: true })) {
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) yield* sourceFiles(child);
    } else if (/\.(ts|tsx|mjs|cjs|js)$/.test(entry.name)) yield child;
  }
}

const NAME = '[A-Z][A-Z0-9_]*';
/**
 * The ways the code outside the API's schema reads a variable: `process.env.X` / `env.X`, `env['X']`, a helper given
 * the environment and the name (`given(env, 'X')`, `portFrom(env, 'X', …)`), and, in a file that indexes the
 * environment by a computed name (`process.env[name]`), a helper called with the name alone (`required('X')`,
 * `new ConfigError('X', …)`).
 */
/** The first group of every match of `pattern` in `text`. @param {string} text @param {string} pattern */
function captured(text, pattern, flags = 'g') {
  return [...text.matchAll(new RegExp(pattern, flags))].map((match) => match[1] ?? '');
}

/** @param {string} text @returns {string[]} */
function variablesIn(text) {
  const names = [
    ...captured(text, `\\benv\\.(${NAME})\\b`),
    ...captured(text, `\\benv\\[\\s*['"\`](${NAME})['"\`]\\s*\\]`),
    ...captured(text, `\\(\\s*(?:process\\.)?env\\s*,\\s*['"](${NAME})['"]`),
  ];
  if (/\benv\[(?!\s*['"`])/.test(text)) names.push(...captured(text, `\\b\\w+\\(\\s*'(${NAME})'\\s*[,)]`));
  return names.filter((name) => name.length > 1 && !NOT_OURS.has(name));
}

/** Variables whose names the code builds: `REMOTE_<NAME>_PORT` and `_URL` for each remote folder (parts.mjs). */
function builtVariables() {
  const parts = readFileSync(path.join(ROOT, 'scripts/lib/parts.mjs'), 'utf8');
  assert.match(parts, /REMOTE_\$\{/, 'scripts/lib/parts.mjs no longer builds REMOTE_<NAME>_… names: update this test');
  const remotes = readdirSync(ROOT).filter(
    (entry) => entry.startsWith('remote-') && existsSync(path.join(ROOT, entry, 'webpack.config.js')),
  );
  return remotes.flatMap((folder) => {
    const name = folder.slice('remote-'.length).toUpperCase();
    return [`REMOTE_${name}_PORT`, `REMOTE_${name}_URL`];
  });
}

/** The API declares its variables in a schema, each a property: it is imported rather than scanned. */
const SCHEMA = 'api/src/config/environment.ts';

/** Every variable read, with the files that read it. @returns {Map<string, Set<string>>} */
function readVariables() {
  /** @type {Map<string, Set<string>>} */
  const read = new Map();
  const note = (/** @type {string} */ name, /** @type {string} */ file) =>
    read.set(name, (read.get(name) ?? new Set()).add(file));
  for (const name of Object.keys(environment.properties)) note(name, SCHEMA);
  for (const file of new Set(SOURCES.flatMap((source) => [...sourceFiles(source)])))
    for (const name of variablesIn(readFileSync(path.join(ROOT, file), 'utf8'))) note(name, file);
  for (const name of builtVariables()) note(name, 'scripts/lib/parts.mjs');
  return read;
}

/** The variables the page documents: the backquoted names in the first cell of its tables' rows. */
/** @param {string} markdown */
function documentedVariables(markdown) {
  const names = new Set();
  for (const cell of captured(markdown, '^\\|([^|\\n]+)\\|', 'gm'))
    for (const name of captured(cell, `\`(${NAME})\``)) names.add(name);
  return names;
}

/**
 * The page's sections by heading, each with the variables its tables document. Every section with a table is named
 * here, so a new one is sorted on purpose: those an operator reads to configure the portal, and the others.
 */
const OPERATOR_SECTIONS = ['The launcher: `npm start`, `npm run dev`, `scripts/serve.mjs`', 'The API'];
const OTHER_SECTIONS = ['Set by the launcher, never by hand', 'Tests', 'Benchmarks'];

/** @param {string} markdown @returns {Map<string, Set<string>>} */
function sections(markdown) {
  const found = new Map();
  for (const section of markdown.split(/^## /m).slice(1)) {
    const [heading = '', ...body] = section.split('\n');
    found.set(heading.trim(), documentedVariables(body.join('\n')));
  }
  return found;
}

const markdown = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
const documented = documentedVariables(markdown);
const bySection = sections(markdown);
const forOperators = new Set(OPERATOR_SECTIONS.flatMap((heading) => [...(bySection.get(heading) ?? [])]));
const read = readVariables();
const example = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
const listed = new Set(captured(example, '^#?\\s*([A-Z][A-Z0-9_]+)=', 'gm'));

describe('docs/configuration.md', () => {
  it('finds the variables where the code reads them (the scan still works)', () => {
    for (const name of ['DATABASE_URL', 'PORT', 'API_PORT', 'REMOTE_AUTH_PORT', 'GOOGLE_CLIENT_ID', 'IDP_GOOGLE_PORT'])
      assert.ok(read.has(name), `${name} was not found in the sources`);
    for (const name of ['STRIPE_API_BASE', 'WEBAUTHN_RP_NAME', 'METRICS_TOKEN'])
      assert.ok(read.get(name)?.has(SCHEMA), `${name} was not found in ${SCHEMA}`);
  });

  it('documents every variable the code reads', () => {
    const missing = [...read.keys()].filter((name) => !documented.has(name)).sort();
    assert.deepEqual(
      missing.map((name) => `${name} (${[...(read.get(name) ?? [])].join(', ')})`),
      [],
      'read by the code but without a row in docs/configuration.md',
    );
  });

  it('documents every variable .env.example lists', () => {
    assert.deepEqual(
      [...listed].filter((name) => !documented.has(name)).sort(),
      [],
      'in .env.example but without a row in docs/configuration.md',
    );
  });

  it("sorts every section with variables into operators' or others' (the .env.example check relies on it)", () => {
    const withVariables = [...bySection].filter(([, names]) => names.size > 0).map(([heading]) => heading);
    assert.deepEqual(withVariables.sort(), [...OPERATOR_SECTIONS, ...OTHER_SECTIONS].sort());
  });

  it('documents no variable that nothing reads', () => {
    assert.deepEqual(
      [...documented].filter((name) => !read.has(name)).sort(),
      [],
      'a row of docs/configuration.md names a variable no code reads',
    );
  });
});

describe('.env.example', () => {
  it("lists every variable an operator sets: each row of the launcher's and the API's sections", () => {
    assert.deepEqual(
      [...forOperators].filter((name) => !listed.has(name)).sort(),
      [],
      'documented for operators in docs/configuration.md but missing from .env.example',
    );
  });

  it('lists no variable that nothing reads', () => {
    assert.deepEqual([...listed].filter((name) => !read.has(name)).sort(), [], 'in .env.example but read by no code');
  });
});
