// Which parts `npm start` builds again (scripts/lib/build.mjs, isFresh): a part is up to date once built from its
// sources as they are, even when the build wrote the same files as before (webpack leaves a file it would write
// unchanged alone, with its old date).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { isFresh, markBuilt } from '../lib/build.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'portal-freshness-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('a part built again to the same files is up to date; a source changed during or after its build is not', () => {
  const target = { name: 'prueba', absDir: dir };
  const source = path.join(dir, 'src', 'index.ts');
  const manifest = path.join(dir, 'dist', 'mf-manifest.json');
  mkdirSync(path.dirname(source), { recursive: true });
  mkdirSync(path.dirname(manifest), { recursive: true });
  const hourAgo = new Date(Date.now() - 3_600_000);
  writeFileSync(manifest, '{}');
  // The manifest as webpack left it: same content as the build before, so not written again, an hour old.
  utimesSync(manifest, hourAgo, hourAgo);
  writeFileSync(source, 'export {};\n');
  assert.equal(isFresh(target), false);

  const buildStarted = Date.now() + 1_000;
  markBuilt(target, buildStarted);
  assert.equal(isFresh(target), true);

  // Saved while the build ran: the build may have read it before; the next start builds it again.
  const savedDuring = new Date(buildStarted + 500);
  utimesSync(source, savedDuring, savedDuring);
  assert.equal(isFresh(target), false);
});

it('a change in the contracts, which the remotes bundle, makes a built part stale', (t) => {
  const target = { name: 'prueba-contratos', absDir: mkdtempSync(path.join(dir, 'parte-')) };
  mkdirSync(path.join(target.absDir, 'dist'), { recursive: true });
  writeFileSync(path.join(target.absDir, 'dist', 'mf-manifest.json'), '{}');
  markBuilt(target, Date.now() + 1_000);
  assert.equal(isFresh(target), true);

  const contract = path.join(import.meta.dirname, '..', '..', 'contracts', 'src', 'index.ts');
  const { atime, mtime } = statSync(contract);
  t.after(() => utimesSync(contract, atime, mtime));
  const later = new Date(Date.now() + 60_000);
  utimesSync(contract, later, later);
  assert.equal(isFresh(target), false);
});
