// The map of the database's triggers (docs/triggers.md) stays true: every trigger of the migrated schema is a row of
// it, with its table and when it fires, and the page names no trigger that is gone. PGlite is PostgreSQL too, so both
// backends read the same catalogue.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildTestApp, forEachBackend, type TestApp } from './helpers/app.js';

const page = fileURLToPath(new URL('../../docs/triggers.md', import.meta.url));
const apiSource = fileURLToPath(new URL('../src/', import.meta.url));

/** An insert into the audit log, as SQL text, as drizzle's SQL template, or as drizzle's query builder. */
const auditInsert = /insert\s+into\s+(audit_log\b|\$\{auditLog\})|\.insert\(\s*auditLog\s*\)/i;

/** The rows of the page's "One writer for each row": a trigger and the one function it calls to write. */
function mappedWriters(): { trigger: string; writer: string }[] {
  const rows = readFileSync(page, 'utf8').matchAll(/^\| *`([a-z0-9_]+)` *\| *`([a-z0-9_]+)\(\)` *\|/gm);
  return [...rows].map(([, trigger = '', writer = '']) => ({ trigger, writer }));
}

interface MappedTrigger {
  name: string;
  table: string;
  when: string;
}

const keyOf = (trigger: MappedTrigger) => `${trigger.name} on ${trigger.table}`;

/** The rows of the page's tables that start with a trigger and its table, both in backticks. */
function mappedTriggers(): MappedTrigger[] {
  const rows = readFileSync(page, 'utf8').matchAll(/^\| *`([a-z0-9_]+)` *\| *`([a-z0-9_]+)` *\| *([^|]*?) *\|/gm);
  return [...rows].map(([, name = '', table = '', when = '']) => ({ name, table, when }));
}

/**
 * `AFTER INSERT OR DELETE, row` from the trigger's definition as the server prints it: the timing, the events (with
 * an UPDATE's columns) and the level. Its WHEN condition and transition tables are for the page's prose.
 */
function whenOf(definition: string): string {
  const parts =
    /^CREATE (?:CONSTRAINT )?TRIGGER \S+ (BEFORE|AFTER|INSTEAD OF) (.+?) ON \S+ .*?FOR EACH (ROW|STATEMENT)/.exec(
      definition,
    );
  if (!parts) throw new Error(`a trigger definition this test cannot read: ${definition}`);
  const [, timing, events, level] = parts;
  return `${timing} ${events}, ${level?.toLowerCase()}`;
}

forEachBackend((backend) => {
  let t: TestApp;
  let live: MappedTrigger[];
  /** Each trigger's function: its name and its body. */
  const functions = new Map<string, { name: string; body: string }>();
  before(async () => {
    t = await buildTestApp(backend);
    const rows = await t.database.transaction((session) =>
      session.query<{ name: string; table: string; definition: string; function: string; body: string }>(
        `SELECT t.tgname AS name, c.relname AS table, pg_get_triggerdef(t.oid) AS definition,
                p.proname AS function, p.prosrc AS body
           FROM pg_trigger t
           JOIN pg_class c ON c.oid = t.tgrelid
           JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_proc p ON p.oid = t.tgfoid
          WHERE NOT t.tgisinternal AND n.nspname = current_schema()
          ORDER BY c.relname, t.tgname`,
      ),
    );
    live = rows.map((row) => ({ name: row.name, table: row.table, when: whenOf(row.definition) }));
    for (const row of rows) functions.set(row.name, { name: row.function, body: row.body });
  });
  after(() => t.close());

  it('docs/triggers.md lists every trigger of the migrated schema, and none that is gone', () => {
    assert.ok(live.length > 0, 'the migrated schema has no trigger: the catalogue query found nothing');
    const mapped = mappedTriggers();
    const listed = new Set(mapped.map(keyOf));
    const existing = new Set(live.map(keyOf));
    const missing = live.filter((trigger) => !listed.has(keyOf(trigger)));
    const gone = mapped.filter((trigger) => !existing.has(keyOf(trigger)));
    const problems = [
      ...missing.map((trigger) => `  not in docs/triggers.md: ${keyOf(trigger)} (${trigger.when}): add a row for it`),
      ...gone.map((trigger) => `  in docs/triggers.md but not in the database: ${keyOf(trigger)}: remove its row`),
    ];
    assert.deepEqual(problems, [], `docs/triggers.md and the migrated schema disagree:\n${problems.join('\n')}`);
    const twice = mapped.map(keyOf).filter((key, index, keys) => keys.indexOf(key) !== index);
    assert.deepEqual(twice, [], `docs/triggers.md lists these more than once: ${twice.join(', ')}`);
  });

  it("the audit log has one writer: audit_write() alone inserts into it, in the migrated schema and in the API's code", async () => {
    const writers = await t.database.transaction((session) =>
      session.query<{ name: string }>(
        `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = current_schema() AND p.prosrc ~* 'insert\\s+into\\s+audit_log\\M'
          ORDER BY p.proname`,
      ),
    );
    assert.deepEqual(
      writers.map((row) => row.name),
      ['audit_write'],
    );
    const code = readdirSync(apiSource, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => auditInsert.test(readFileSync(join(apiSource, file), 'utf8')));
    assert.deepEqual(
      code,
      [],
      'these insert into the audit log themselves instead of calling recordAudit or audit_write()',
    );
  });

  it('each trigger of "One writer for each row" calls the function the page names', () => {
    const writers = mappedWriters();
    assert.ok(writers.length > 0, 'the page lists no writer');
    const wrong = writers
      .filter(({ trigger, writer }) => {
        const own = functions.get(trigger);
        return !own || (own.name !== writer && !new RegExp(`\\b${writer}\\s*\\(`, 'i').test(own.body));
      })
      .map(({ trigger, writer }) => `  ${trigger} does not call ${writer}()`);
    assert.deepEqual(wrong, [], `docs/triggers.md names the wrong writer:\n${wrong.join('\n')}`);
  });

  it('says when each trigger fires as the database defines it', () => {
    const mapped = new Map(mappedTriggers().map((trigger) => [keyOf(trigger), trigger.when]));
    const wrong = live
      .filter((trigger) => mapped.has(keyOf(trigger)) && mapped.get(keyOf(trigger)) !== trigger.when)
      .map(
        (trigger) =>
          `  ${keyOf(trigger)}: the page says "${mapped.get(keyOf(trigger))}", the database "${trigger.when}"`,
      );
    assert.deepEqual(wrong, [], `docs/triggers.md says the wrong moment for:\n${wrong.join('\n')}`);
  });
});
