// Backup and restore of the embedded database (docs/decisions/0057-backups.md). A backup is taken with the API stopped:
// PGlite is single-process, so the one consistent reading is from the process that holds the directory's lock. The
// file carries the database (PGlite's own dump) and the signing key generated into DATA_DIR, which the sessions,
// partner tokens and emailed codes depend on, with the SAML identity provider's key and certificate generated beside
// it (the partner apps trust that certificate). A restore checks the whole file, loads it into a folder of its own
// beside the target and only then moves it into place: a wrong file changes nothing.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { embeddedDatabaseDir, lockDataDir, pgliteExtensions, refuseIfLocked } from '../../db/client.js';
import { readMigrations } from '../../db/migrate.js';
import { tightenToOwner } from '../../lib/private-data.js';
import { generatedKeyFile, keysDirOf, loadSigningKey } from '../tokens/keys.js';
import { generatedSamlKeyFile, loadSamlIdpKey } from '../tokens/saml-key.js';
import { ArchiveError, readArchive, writeArchive } from './archive.js';
import { backupMessages } from './messages.js';

/** A backup or restore refused for a reason the operator can act on; nothing was changed. */
export class BackupRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusal';
  }
}

const FORMAT = 'portal-respaldo';
const FORMAT_VERSION = 1;
const MANIFEST = 'respaldo.json';
/** Names inside the backup file mirror DATA_DIR's layout: what goes where is readable with `tar tvf`. */
const DATABASE_ENTRY = 'pglite.tar.gz';
const KEY_ENTRY = 'keys/jwt-es256.pem';
const SAML_KEY_ENTRY = 'keys/saml-idp.pem';

interface Manifest {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** `SELECT version()` of the database that was dumped (PGlite names its PostgreSQL and its own version). */
  database: string;
  /** The migrations applied in the database, by name. */
  migrations: string[];
  accounts: number;
  /** Every other file of the backup with its SHA-256 (hex): a damaged or swapped file is refused. */
  files: Record<string, string>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface DatabaseFacts {
  database: string;
  migrations: string[];
  accounts: number;
}

async function factsOf(client: PGlite): Promise<DatabaseFacts> {
  const [version] = (await client.query<{ version: string }>('SELECT version()')).rows;
  const migrations = (await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows;
  const [users] = (await client.query<{ count: number }>('SELECT count(*)::int AS count FROM users')).rows;
  return {
    database: version?.version ?? '',
    migrations: migrations.map((row) => row.name),
    accounts: users?.count ?? 0,
  };
}

export interface BackupResult {
  file: string;
  bytes: number;
  createdAt: Date;
  accounts: number;
  /** 'included': the key generated into DATA_DIR is in the file; 'configured': JWT_PRIVATE_KEY, kept by the operator. */
  signingKey: 'included' | 'configured' | 'none';
}

/**
 * Writes the embedded database of `dataDir` and its generated signing key to `file` (owner-only, never over an
 * existing file). Refuses, changing nothing, while another process (the API) holds the database.
 */
export async function backUpEmbedded(options: {
  dataDir: string;
  file: string;
  /** JWT_PRIVATE_KEY is set: the key is the operator's, not DATA_DIR's, and stays out of the file. */
  keyConfigured: boolean;
  /** SAML_IDP_PRIVATE_KEY is set: the SAML key is the operator's too, and stays out of the file. */
  samlKeyConfigured?: boolean;
}): Promise<BackupResult> {
  const file = resolve(options.file);
  if (existsSync(file)) throw new BackupRefusal(backupMessages.fileExists(file));
  if (!existsSync(dirname(file))) throw new BackupRefusal(backupMessages.folderMissing(dirname(file)));
  const dir = embeddedDatabaseDir(options.dataDir);
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new BackupRefusal(backupMessages.nothingToBackUp(dir));
  refuseIfLocked(options.dataDir);

  const release = lockDataDir(options.dataDir);
  let facts: DatabaseFacts;
  let dump: Buffer;
  try {
    const client = await PGlite.create({ dataDir: dir, extensions: pgliteExtensions });
    try {
      // Every committed change written to the data files, not only to the log, before they are read.
      await client.exec('CHECKPOINT');
      facts = await factsOf(client);
      dump = Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer());
    } finally {
      await client.close();
      tightenToOwner(dir);
    }
  } finally {
    release();
  }

  const keyFile = generatedKeyFile(keysDirOf(options.dataDir));
  const key = !options.keyConfigured && existsSync(keyFile) ? readFileSync(keyFile) : undefined;
  // The SAML key generated beside it, unless SAML_IDP_PRIVATE_KEY is the operator's.
  const samlKeyFile = generatedSamlKeyFile(keysDirOf(options.dataDir));
  const samlKey = !options.samlKeyConfigured && existsSync(samlKeyFile) ? readFileSync(samlKeyFile) : undefined;
  const files: Record<string, Buffer> = {
    [DATABASE_ENTRY]: dump,
    ...(key ? { [KEY_ENTRY]: key } : {}),
    ...(samlKey ? { [SAML_KEY_ENTRY]: samlKey } : {}),
  };
  const createdAt = new Date();
  const manifest: Manifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt: createdAt.toISOString(),
    ...facts,
    files: Object.fromEntries(Object.entries(files).map(([name, data]) => [name, sha256(data)])),
  };
  const archive = writeArchive(
    [
      { name: MANIFEST, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
      ...Object.entries(files).map(([name, data]) => ({ name, data })),
    ],
    createdAt,
  );
  // Written aside and renamed: an interrupted backup never leaves a file that looks whole.
  const partial = join(dirname(file), `.${basename(file)}.${process.pid}.parcial`);
  try {
    writeFileSync(partial, archive, { mode: 0o600, flag: 'wx' });
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return {
    file,
    bytes: archive.length,
    createdAt,
    accounts: facts.accounts,
    signingKey: key ? 'included' : options.keyConfigured ? 'configured' : 'none',
  };
}

interface CheckedBackup {
  manifest: Manifest;
  database: Buffer;
  key: Buffer | undefined;
  samlKey: Buffer | undefined;
}

/** The backup file, checked whole (container, manifest, every file's hash, the key) before anything is touched. */
async function readBackup(file: string): Promise<CheckedBackup> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BackupRefusal(backupMessages.fileMissing(file));
    if (code === 'EISDIR') throw new BackupRefusal(backupMessages.notABackup(file, 'es una carpeta'));
    throw error;
  }
  const refuse = (why: string) => new BackupRefusal(backupMessages.notABackup(file, why));
  let entries: Map<string, Buffer>;
  try {
    entries = readArchive(bytes);
  } catch (error) {
    if (error instanceof ArchiveError) throw refuse(error.message);
    throw error;
  }
  const manifestBytes = entries.get(MANIFEST);
  if (!manifestBytes) throw refuse(`le falta ${MANIFEST}`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
  } catch {
    throw refuse(`${MANIFEST} no es JSON`);
  }
  if (manifest?.format !== FORMAT) throw refuse(`${MANIFEST} no es el de un respaldo del portal`);
  if (typeof manifest.version !== 'number' || manifest.version > FORMAT_VERSION) {
    throw new BackupRefusal(backupMessages.newerFormat(file, Number(manifest.version)));
  }
  const listed = manifest.files ?? {};
  if (!listed[DATABASE_ENTRY]) throw refuse(`no lleva ${DATABASE_ENTRY}`);
  for (const [name, data] of entries) {
    if (name === MANIFEST) continue;
    if (name !== DATABASE_ENTRY && name !== KEY_ENTRY && name !== SAML_KEY_ENTRY)
      throw refuse(`contiene ${name}, que un respaldo no lleva`);
    if (listed[name] !== sha256(data)) throw refuse(`${name} está dañado: su suma SHA-256 no coincide`);
  }
  for (const name of Object.keys(listed)) if (!entries.has(name)) throw refuse(`le falta ${name}`);
  const key = entries.get(KEY_ENTRY);
  if (key) {
    try {
      await loadSigningKey({ privateKeyPem: key.toString('utf8'), keysDir: '' });
    } catch {
      throw refuse(`${KEY_ENTRY} no es una clave de firma ES256`);
    }
  }
  const samlKey = entries.get(SAML_KEY_ENTRY);
  if (samlKey) {
    const pem = samlKey.toString('utf8');
    const block = (label: string) =>
      new RegExp(`-----BEGIN ${label}-----[\\s\\S]+?-----END ${label}-----`).exec(pem)?.[0];
    try {
      await loadSamlIdpKey({
        privateKeyPem: block('PRIVATE KEY') ?? '',
        certificatePem: block('CERTIFICATE') ?? '',
        previousCertificatePem: undefined,
        keysDir: '',
      });
    } catch {
      throw refuse(`${SAML_KEY_ENTRY} no es una clave SAML con su certificado`);
    }
  }
  return { manifest, database: entries.get(DATABASE_ENTRY) as Buffer, key, samlKey };
}

export interface RestoreResult {
  dataDir: string;
  /** When the backup was taken. */
  createdAt: Date;
  accounts: number;
  signingKey: boolean;
  /** Migrations this version of the API will apply at its next start (the backup came from an older one). */
  pendingMigrations: number;
  /** Where what the restore replaced was moved (with --forzar), for the operator to delete once satisfied. */
  replacedInto: string | undefined;
}

const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');

/**
 * Puts the backup in `file` into `dataDir`: the database and, when the backup has it, the signing key. A directory
 * that already holds either is refused unless `force`, and what was there is then moved aside, not deleted. Refuses,
 * changing nothing, while another process (the API) holds the database, and for any file that is not a whole backup
 * this version can read.
 */
export async function restoreEmbedded(options: {
  dataDir: string;
  file: string;
  force: boolean;
}): Promise<RestoreResult> {
  const dataDir = resolve(options.dataDir);
  const file = resolve(options.file);
  const backup = await readBackup(file);
  refuseIfLocked(dataDir);

  const targets = [
    embeddedDatabaseDir(dataDir),
    ...(backup.key ? [generatedKeyFile(keysDirOf(dataDir))] : []),
    ...(backup.samlKey ? [generatedSamlKeyFile(keysDirOf(dataDir))] : []),
  ];
  const occupied = targets.filter((target) => {
    if (!existsSync(target)) return false;
    return !statSync(target).isDirectory() || readdirSync(target).length > 0;
  });
  if (occupied.length > 0 && !options.force) {
    const what = occupied.map((target) =>
      target === embeddedDatabaseDir(dataDir) ? 'una base de datos (pglite/)' : 'una clave de firma (keys/)',
    );
    throw new BackupRefusal(backupMessages.notEmpty(dataDir, [...new Set(what)].join(' y ')));
  }

  const dataDirExisted = existsSync(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const release = lockDataDir(dataDir);
  const staging = join(dataDir, `.restaurando-${process.pid}`);
  let restored = false;
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { mode: 0o700 });
    const stagedDatabase = join(staging, 'pglite');
    let facts: DatabaseFacts;
    try {
      const client = await PGlite.create({
        dataDir: stagedDatabase,
        loadDataDir: new Blob([new Uint8Array(backup.database)]),
        extensions: pgliteExtensions,
      });
      try {
        facts = await factsOf(client);
      } finally {
        await client.close();
      }
    } catch (error) {
      throw new BackupRefusal(backupMessages.unloadable(file, (error as Error).message));
    }
    const known = new Set(readMigrations().map((migration) => migration.name));
    const unknown = facts.migrations.find((name) => !known.has(name));
    if (unknown) throw new BackupRefusal(backupMessages.newerSchema(file, unknown));
    tightenToOwner(stagedDatabase);
    const staged: Array<[from: string, to: string]> = [[stagedDatabase, embeddedDatabaseDir(dataDir)]];
    if (backup.key) {
      const stagedKey = join(staging, KEY_ENTRY);
      mkdirSync(dirname(stagedKey), { recursive: true, mode: 0o700 });
      writeFileSync(stagedKey, backup.key, { mode: 0o600 });
      staged.push([stagedKey, generatedKeyFile(keysDirOf(dataDir))]);
    }
    if (backup.samlKey) {
      const stagedSamlKey = join(staging, SAML_KEY_ENTRY);
      mkdirSync(dirname(stagedSamlKey), { recursive: true, mode: 0o700 });
      writeFileSync(stagedSamlKey, backup.samlKey, { mode: 0o600 });
      staged.push([stagedSamlKey, generatedSamlKeyFile(keysDirOf(dataDir))]);
    }

    const replacedInto = occupied.length > 0 ? join(dataDir, `antes-de-restaurar-${stamp(new Date())}`) : undefined;
    moveAll([
      ...occupied.map((target): [string, string] => [target, join(replacedInto as string, relative(dataDir, target))]),
      ...staged,
    ]);
    restored = true;
    return {
      dataDir,
      createdAt: new Date(backup.manifest.createdAt),
      accounts: facts.accounts,
      signingKey: backup.key !== undefined,
      pendingMigrations: [...known].filter((name) => !facts.migrations.includes(name)).length,
      replacedInto,
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
    if (!restored && !dataDirExisted) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Renames each pair in order; when one fails, the ones already done are put back, so it is all or nothing. */
function moveAll(moves: Array<[from: string, to: string]>): void {
  const done: Array<[string, string]> = [];
  try {
    for (const [from, to] of moves) {
      mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
      renameSync(from, to);
      done.push([from, to]);
    }
  } catch (error) {
    for (const [from, to] of done.reverse()) renameSync(to, from);
    throw error;
  }
}
