// The map of the database's triggers (docs/triggers.md) stays true: every trigger of the migrated schema is a row of
// it, with its table and when it fires, and the page names no trigger that is gone. PGlite is PostgreSQL too, so both
// backends read the same catalogue.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildTestApp, forEachBackend, type TestApp } from './helpers/app.js';

const page = fileURLToPath(new URL('../../docs/triggers.md', import.meta.url));

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
  before(async () => {
    t = await buildTestApp(backend);
    const rows = await t.database.transaction((session) =>
      session.query<{ name: string; table: string; definition: string }>(
        `SELECT t.tgname AS name, c.relname AS table, pg_get_triggerdef(t.oid) AS definition
           FROM pg_trigger t
           JOIN pg_class c ON c.oid = t.tgrelid
           JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE NOT t.tgisinternal AND n.nspname = current_schema()
          ORDER BY c.relname, t.tgname`,
      ),
    );
    live = rows.map((row) => ({ name: row.name, table: row.table, when: whenOf(row.definition) }));
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
