// The operator's command for accounts and backups: `npm run admin -- <orden>` (docs/operations.md). An account order
// builds the API itself (`buildApp`: the same configuration, database, migrations, password hashing, codes and mail
// outbox) without listening, runs, writes itself to the audit log as 'operador (CLI)' and exits; a backup order works
// on the embedded database's directory alone. Exit codes: 0 done, 1 refused or failed, 2 wrong arguments.
import { parseArgs } from 'node:util';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { DatabaseLockedError } from '../db/client.js';
import { mailOutbox, roles, users, type User } from '../db/schema.js';
import { createAdministrator, generatePassword } from '../db/seed.js';
import { HttpError, isDatabaseUnavailable } from '../lib/errors.js';
import { resetCodeMail } from '../domain/mail/templates.js';
import { changeUserRole, changeUserStatus, keepOneAdministrator } from '../domain/accounts/status.js';
import { operatorActor, recordAudit } from '../domain/audit/log.js';
import { newPasswordValues } from '../domain/accounts/passwords.js';
import { findUserByEmail } from '../domain/accounts/queries.js';
import { normalizeEmail } from '../lib/email-address.js';
import { loadEnvFile } from '../lib/env-file.js';
import { BackupRefusal, backUpEmbedded, restoreEmbedded } from '../domain/backups/embedded.js';
import { type Command, type DataCommand, type OptionValues, Refusal } from './command.js';
import { companyCommands, companyUsage } from './companies.js';
import { oidcClientCommands } from './oidc-clients.js';

const usage = `Uso: npm run admin -- <orden> [argumentos]

Órdenes:
  crear-admin <email> [--nombre <nombre>] [--apellido <apellido>]
                              crea un administrador y muestra su contraseña una sola vez
  restablecer-clave <email>   pone una contraseña temporal, la muestra una sola vez y cierra sus sesiones
  restablecer-clave <email> --por-correo
                              le envía por correo un código para elegir una contraseña nueva
  promover <email>            la cuenta pasa a ser administradora
  degradar <email>            la cuenta pasa a ser de usuario; sus sesiones terminan
  suspender <email>           la cuenta no puede entrar; sus sesiones terminan
  reactivar <email>           la cuenta suspendida puede volver a entrar
  listar-admins               lista los administradores
  clientes-oidc               lista los clientes OpenID Connect (apps que inician sesión con el portal) y sus URIs
  crear-cliente-oidc <nombre> --redireccion <uri> [--redireccion <uri>…] [--publico] [--primera-parte]
                     [--app <id>] [--tras-cerrar <uri>…] [--cierre-sesion <uri>] [--inicio-sesion <uri>]
                     [--permisos openid,profile,email,phone,plan,organization,offline_access]
                     [--sujeto opaco|por_cliente|numerico] [--dispositivos]
                              registra un cliente; el secreto (confidencial) se muestra una sola vez; el
                              sub que recibe la app es opaco si no se indica otro; --dispositivos: inicio de
                              sesión en dispositivos (un público no necesita --redireccion)
  modificar-cliente-oidc <client_id> [--nombre <nombre>] [--redireccion <uri>…]
                     [--tras-cerrar <uri>… | --sin-tras-cerrar] [--cierre-sesion <uri> | --sin-cierre-sesion]
                     [--inicio-sesion <uri> | --sin-inicio-sesion] [--publico | --confidencial]
                     [--primera-parte | --tercera-parte] [--app <id> | --sin-app] [--permisos <lista>]
                     [--sujeto opaco|por_cliente|numerico] [--dispositivos | --sin-dispositivos]
                              cambia solo lo indicado (una lista dada reemplaza la anterior); si pasa a
                              confidencial, su secreto se muestra una sola vez
  rotar-secreto-oidc <client_id>
                              da un secreto nuevo al cliente; el anterior deja de valer al instante
  eliminar-cliente-oidc <client_id>
                              elimina el cliente y todos sus tokens
${companyUsage}
  respaldo <archivo>          copia la base de datos embebida y su clave de firma en un archivo nuevo
  restaurar <archivo> [--forzar]
                              pone un respaldo en DATA_DIR; --forzar reemplaza lo que haya (y lo guarda aparte)
  ayuda                       muestra esta ayuda

Usa la configuración de la API (DATABASE_URL, DATA_DIR, SMTP_URL…). Con la base de datos embebida (sin
DATABASE_URL) la API debe estar detenida; con PostgreSQL puede seguir en marcha, y los respaldos se hacen con
pg_dump y pg_restore (docs/operations.md).
Cada cambio de una cuenta o una empresa queda en el registro de auditoría como hecho por 'operador (CLI)'.`;

const usageError = (problem: string) => new Refusal(`${problem}\n\n${usage}`, 2);

const statusLabels: Record<string, string> = {
  active: 'activa',
  suspended: 'suspendida',
  pending_verification: 'pendiente de verificación',
};

function email(raw: string): string {
  const normalized = normalizeEmail(raw);
  if (normalized.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized)) {
    throw usageError(`«${raw}» no es un email válido.`);
  }
  return normalized;
}

async function account(app: FastifyInstance, raw: string): Promise<User> {
  const address = email(raw);
  const user = await findUserByEmail(app.db, address);
  if (!user) throw new Refusal(`No existe ninguna cuenta con el email ${address}.`);
  return user;
}

const commands: Record<string, Command> = {
  'crear-admin': {
    kind: 'account',
    positionals: 1,
    options: { nombre: { type: 'string' }, apellido: { type: 'string' } },
    async run(app, [raw = ''], options) {
      const address = email(raw);
      const password = generatePassword();
      await app.db.transaction(async (tx) => {
        const [existing] = await tx.select().from(users).where(eq(users.email, address)).for('update');
        if (existing?.role === roles.admin) {
          throw new Refusal(
            `${address} ya es administrador. Si perdió la contraseña: npm run admin -- restablecer-clave ${address}`,
          );
        }
        if (existing)
          throw new Refusal(
            `Ya existe una cuenta con ${address}. Para hacerla administradora: npm run admin -- promover ${address}`,
          );
        const admin = await createAdministrator(tx, {
          email: address,
          password,
          name: (options.nombre as string | undefined)?.trim() || undefined,
          lastName: (options.apellido as string | undefined)?.trim() || undefined,
        });
        await recordAudit(tx, operatorActor, [
          { action: 'user.create', target: { type: 'user', id: admin.id }, details: { role: roles.admin } },
        ]);
      });
      return `Administrador creado: ${address}\nContraseña (se muestra solo esta vez): ${password}\nPídele que la cambie en «Mi perfil» al entrar.`;
    },
  },

  'restablecer-clave': {
    kind: 'account',
    positionals: 1,
    options: { 'por-correo': { type: 'boolean' } },
    async run(app, [raw = ''], options) {
      const user = await account(app, raw);
      if (user.status === 'pending_verification') {
        throw new Refusal(
          `${user.email} aún no ha verificado su email: no tiene contraseña que restablecer (puede registrarse de nuevo).`,
        );
      }
      if (options['por-correo']) return mailResetCode(app, user);
      const password = generatePassword();
      const passwordHash = await app.passwords.hash(password);
      await app.db.transaction(async (tx) => {
        await tx.update(users).set(newPasswordValues(passwordHash)).where(eq(users.id, user.id));
        await recordAudit(tx, operatorActor, [
          { action: 'user.password_reset', target: { type: 'user', id: user.id }, details: { method: 'temporal' } },
        ]);
      });
      // As after a reset with an emailed code, the account-wide sign-in throttle does not stand in the way (a lock of
      // one address, up to 15 min, runs out by itself: the console does not know the person's address).
      await app.limits.clearSignInFailures(user.email, null, { everywhere: true });
      const suspended =
        user.status === 'suspended' ? `\nLa cuenta sigue suspendida: npm run admin -- reactivar ${user.email}` : '';
      return (
        `Contraseña temporal de ${user.email} (se muestra solo esta vez): ${password}\n` +
        `Sus sesiones abiertas se han cerrado. Pídele que la cambie en «Mi perfil» al entrar.${suspended}`
      );
    },
  },

  promover: {
    kind: 'account',
    positionals: 1,
    async run(app, [raw = '']) {
      const user = await account(app, raw);
      if (user.status !== 'active') {
        throw new Refusal(
          `${user.email} está ${statusLabels[user.status] ?? user.status}: solo una cuenta activa puede ser administradora.`,
        );
      }
      const { before } = await app.db.transaction((tx) => changeUserRole(tx, operatorActor, user.id, roles.admin));
      if (before.role === roles.admin) return `${user.email} ya es administrador: nada que cambiar.`;
      return `${user.email} ahora es administrador. Verá el panel de administración al volver a cargar el portal.`;
    },
  },

  degradar: {
    kind: 'account',
    positionals: 1,
    async run(app, [raw = '']) {
      const user = await account(app, raw);
      const { before } = await app.db.transaction(async (tx) => {
        await keepOneAdministrator(tx, user.id);
        return changeUserRole(tx, operatorActor, user.id, roles.user);
      });
      if (before.role !== roles.admin) return `${user.email} no es administrador: nada que cambiar.`;
      return `${user.email} ya no es administrador. Sus sesiones se han cerrado.`;
    },
  },

  suspender: {
    kind: 'account',
    positionals: 1,
    async run(app, [raw = '']) {
      const user = await account(app, raw);
      const { before } = await app.db.transaction(async (tx) => {
        await keepOneAdministrator(tx, user.id);
        return changeUserStatus(tx, operatorActor, user.id, 'suspended');
      });
      if (before.status === 'suspended') return `${user.email} ya estaba suspendida: nada que cambiar.`;
      return `${user.email} suspendida. Sus sesiones se han cerrado y no puede volver a entrar.`;
    },
  },

  reactivar: {
    kind: 'account',
    positionals: 1,
    async run(app, [raw = '']) {
      const user = await account(app, raw);
      if (user.status === 'pending_verification') {
        throw new Refusal(`${user.email} no está suspendida: aún no ha verificado su email.`);
      }
      const { before } = await app.db.transaction((tx) => changeUserStatus(tx, operatorActor, user.id, 'active'));
      if (before.status === 'active') return `${user.email} ya estaba activa: nada que cambiar.`;
      return `${user.email} reactivada: puede volver a entrar.`;
    },
  },

  'listar-admins': {
    kind: 'account',
    positionals: 0,
    async run(app) {
      const admins = await app.db.select().from(users).where(eq(users.role, roles.admin)).orderBy(asc(users.id));
      if (admins.length === 0) return 'No hay administradores. Crea uno: npm run admin -- crear-admin <email>';
      const rows = admins.map((admin) => [
        String(admin.id),
        admin.email,
        `${admin.name} ${admin.lastName}`.trim() || '—',
        statusLabels[admin.status] ?? admin.status,
        admin.createdAt.toISOString().slice(0, 10),
      ]);
      const header = ['id', 'email', 'nombre', 'estado', 'alta'];
      const widths = header.map((title, column) =>
        Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
      );
      const line = (cells: string[]) =>
        cells
          .map((cell, column) => cell.padEnd(widths[column] ?? 0))
          .join('  ')
          .trimEnd();
      const active = admins.filter((admin) => admin.status === 'active').length;
      return [
        line(header),
        ...rows.map(line),
        '',
        `${admins.length} administrador${admins.length === 1 ? '' : 'es'}, ${active} activo${active === 1 ? '' : 's'}.`,
      ].join('\n');
    },
  },

  ...oidcClientCommands,
  ...companyCommands,

  respaldo: {
    kind: 'data',
    positionals: 1,
    async run(config, file) {
      refuseOnPostgres(config);
      const result = await backUpEmbedded({
        dataDir: config.dataDir,
        file,
        keyConfigured: config.jwtPrivateKey !== undefined,
        samlKeyConfigured: config.samlIdp.privateKey !== undefined,
      });
      const what = `la base de datos embebida (${accountCount(result.accounts)})`;
      const key = {
        included: [`Respaldo escrito en ${result.file} (${megabytes(result.bytes)}): ${what} y su clave de firma.`],
        configured: [
          `Respaldo escrito en ${result.file} (${megabytes(result.bytes)}): ${what}.`,
          'La clave de firma viene de JWT_PRIVATE_KEY y no va en el respaldo: guárdala aparte, la restauración necesita la misma.',
        ],
        none: [
          `Respaldo escrito en ${result.file} (${megabytes(result.bytes)}): ${what}.`,
          `No había clave de firma en ${config.dataDir}/keys: la API generará una al arrancar.`,
        ],
      }[result.signingKey];
      return [
        ...key,
        'Guárdalo como un secreto: lleva los hashes de las contraseñas y los secretos de los segundos factores.',
      ].join('\n');
    },
  },

  restaurar: {
    kind: 'data',
    positionals: 1,
    options: { forzar: { type: 'boolean' } },
    async run(config, file, options) {
      refuseOnPostgres(config);
      const result = await restoreEmbedded({ dataDir: config.dataDir, file, force: options.forzar === true });
      const taken = result.createdAt.toISOString().slice(0, 16).replace('T', ' ');
      const lines = [
        `Restaurado en ${result.dataDir}: el respaldo del ${taken} UTC (${accountCount(result.accounts)})` +
          `${result.signingKey ? ' y su clave de firma' : ''}.`,
      ];
      if (result.replacedInto) {
        lines.push(`Lo que había se guardó en ${result.replacedInto}: bórralo cuando compruebes la restauración.`);
      }
      if (!result.signingKey) {
        lines.push(
          'El respaldo no lleva clave de firma (se hizo con JWT_PRIVATE_KEY): arranca la API con el mismo JWT_PRIVATE_KEY.',
        );
      } else if (config.jwtPrivateKey !== undefined) {
        lines.push(
          'JWT_PRIVATE_KEY está configurada: la API firmará con ella y no con la clave del respaldo, así que las sesiones del respaldo no valdrán.',
        );
      }
      if (result.pendingMigrations > 0) {
        const pending = result.pendingMigrations;
        lines.push(
          `La API aplicará ${pending} ${pending === 1 ? 'migración pendiente' : 'migraciones pendientes'} al arrancar.`,
        );
      }
      lines.push(
        'Lo posterior al respaldo no vuelve: las sesiones abiertas desde entonces terminan (se vuelve a entrar con la ' +
          'misma contraseña y el mismo segundo factor) y los códigos enviados por correo desde entonces no valen.',
      );
      return lines.join('\n');
    },
  },
};

/** PostgreSQL has its own tools, consistent while the API runs: the embedded database's orders point to them. */
function refuseOnPostgres(config: Config): void {
  if (config.databaseUrl) {
    throw new Refusal(
      'Con PostgreSQL (DATABASE_URL) el respaldo se hace con pg_dump y se restaura con pg_restore: ver docs/operations.md, sección «Backups».',
    );
  }
}

const accountCount = (count: number) => `${count} cuenta${count === 1 ? '' : 's'}`;

const megabytes = (bytes: number) =>
  `${(bytes / 1_000_000).toLocaleString('es', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;

/** The reset code of `POST /auth/forgot-password`, issued and mailed through the outbox, then delivered now. */
async function mailResetCode(app: FastifyInstance, user: User): Promise<string> {
  if (user.status !== 'active') {
    throw new Refusal(
      `${user.email} está ${statusLabels[user.status] ?? user.status}: reactívala antes de enviarle un código.`,
    );
  }
  await app.db.transaction(async (tx) => {
    const code = await app.codes.issue(tx, user.id, 'reset_password');
    await app.mailer.enqueue(tx, {
      to: user.email,
      ...resetCodeMail({ name: user.name, email: user.email, code, portalUrl: app.config.portalUrl }),
    });
    await recordAudit(tx, operatorActor, [
      { action: 'user.password_reset', target: { type: 'user', id: user.id }, details: { method: 'correo' } },
    ]);
  });
  await app.mailer.deliverDue();
  const [waiting] = await app.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, user.email), isNull(mailOutbox.sentAt)))
    .limit(1);
  const where = `${app.config.portalUrl}/reset-password`;
  if (waiting) {
    return (
      `El correo para ${user.email} quedó en la cola: el servidor de correo no lo aceptó ahora (SMTP_URL). ` +
      'La API lo reintentará sola mientras esté en marcha.'
    );
  }
  if (!app.config.smtpUrl) {
    return (
      `Sin SMTP_URL el correo no sale de esta máquina: es el que se muestra arriba (código incluido, vale 10 minutos). ` +
      `Con él se elige una contraseña nueva en ${where}.`
    );
  }
  return `Código enviado por correo a ${user.email} (vale 10 minutos). Con él elige una contraseña nueva en ${where}.`;
}

function parse(argv: string[]): { command: Command; positionals: string[]; values: OptionValues } | 'help' {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'ayuda' || name === '--help' || name === '-h') return 'help';
  // Own properties only: 'constructor' or '__proto__' would otherwise reach Object.prototype's.
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) throw usageError(`Orden desconocida: «${name}».`);
  let parsed: { positionals: string[]; values: OptionValues };
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (error) {
    const option = /'(-[^']+)'/.exec((error as Error).message)?.[1];
    throw usageError(
      option ? `Opción desconocida o incompleta para ${name}: ${option}.` : `Argumentos no válidos para ${name}.`,
    );
  }
  if (command.kind === 'account' && command.positionals === 'varios') {
    command.checkPositionals?.(parsed.positionals, parsed.values as OptionValues);
    return { command, positionals: parsed.positionals, values: parsed.values as OptionValues };
  }
  if (parsed.positionals.length !== command.positionals) {
    const needs = command.kind === 'data' ? 'un archivo' : command.positional ? 'un argumento' : 'un email';
    throw usageError(command.positionals === 1 ? `${name} necesita ${needs}.` : `${name} no lleva argumentos.`);
  }
  // Checked here, before any database is opened.
  if (command.kind === 'account') {
    for (const positional of parsed.positionals) (command.positional ?? email)(positional);
    command.checkOptions?.(parsed.values as OptionValues);
  } else if (!parsed.positionals[0]?.trim()) throw usageError(`${name} necesita un archivo.`);
  return {
    command,
    positionals: parsed.positionals,
    values: parsed.values as OptionValues,
  };
}

/** Runs a backup order; its refusals are one line (two when the API holds the database) and exit code 1. */
async function runDataCommand(
  command: DataCommand,
  config: Config,
  file: string,
  options: OptionValues,
): Promise<number> {
  try {
    console.log(await command.run(config, file, options));
    return 0;
  } catch (error) {
    if (error instanceof Refusal || error instanceof BackupRefusal) {
      console.error(error.message);
      return 1;
    }
    if (error instanceof DatabaseLockedError) {
      console.error(
        `La API está en marcha (pid ${error.pid}) y tiene abierta la base de datos embebida de ${error.dataDir}.\n` +
          'Los respaldos y las restauraciones de la base de datos embebida se hacen con la API detenida: detenla ' +
          '(Ctrl-C en npm start), repite la orden y vuelve a arrancarla. No se cambió nada.',
      );
      return 1;
    }
    throw error;
  }
}

/** Why the API could not be built, for the operator. */
function startFailure(error: unknown, config: Config): string {
  if (error instanceof DatabaseLockedError) {
    return (
      `La API está en marcha (pid ${error.pid}) y tiene abierta la base de datos embebida de ${error.dataDir}.\n` +
      'Detén la API (Ctrl-C en npm start) y repite la orden; con PostgreSQL (DATABASE_URL) no hace falta detenerla.'
    );
  }
  if (isDatabaseUnavailable(error)) {
    return `No se pudo conectar con la base de datos (DATABASE_URL): ${(error as Error).message}`;
  }
  return `No se pudo abrir la API (${config.databaseUrl ? 'PostgreSQL' : `base de datos embebida en ${config.dataDir}`}): ${(error as Error).message}`;
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error((error as Error).message);
    return (error as Refusal).exitCode ?? 2;
  }
  if (parsed === 'help') {
    console.log(usage);
    return 0;
  }

  let config: Config;
  try {
    // The API's own configuration; its request logs would only bury the answer.
    loadEnvFile();
    config = loadConfig({ LOG_LEVEL: 'warn', ...process.env });
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : String(error));
    return 1;
  }
  const { command } = parsed;
  if (command.kind === 'data') return runDataCommand(command, config, parsed.positionals[0] ?? '', parsed.values);
  let app: FastifyInstance;
  try {
    // The command's answer is standard output; what the API logs meanwhile (a warning of its background work) goes to
    // standard error, never into the answer a script reads.
    app = await buildApp({ config, logStream: process.stderr, worksQueues: false, answersRequests: false });
  } catch (error) {
    console.error(startFailure(error, config));
    return 1;
  }
  try {
    console.log(await command.run(app, parsed.positionals, parsed.values));
    return 0;
  } catch (error) {
    if (error instanceof Refusal) {
      console.error(error.message);
      return error.exitCode;
    }
    if (error instanceof HttpError) {
      console.error(
        error.code === 'LAST_ADMIN'
          ? `${argv[1]}: es el último administrador activo. Crea o promueve otro antes (npm run admin -- crear-admin <email>).`
          : error.message,
      );
      return 1;
    }
    if (isDatabaseUnavailable(error)) {
      console.error(`La base de datos no respondió: ${(error as Error).message}. No se cambió nada.`);
      return 1;
    }
    throw error;
  } finally {
    await app.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
