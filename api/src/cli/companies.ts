// Customer companies from the console, as platform administrators manage them in the admin panel
// (docs/decisions/0073): the same domain rules, Spanish refusals and audit entries (as 'operador (CLI)', with the
// company's id so its own administrators read them too).
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { companyMembers, type CompanyRole, companyRoles } from '../db/schema.js';
import { operatorActor, recordAudit } from '../domain/audit/log.js';
import { findUserByEmail } from '../domain/accounts/queries.js';
import { normalizeEmail } from '../lib/email-address.js';
import {
  companyDetail,
  type CompanyView,
  createCompany,
  findCompany,
  listCompanies,
  type StatusWord,
  updateCompany,
  updateCompanySettings,
} from '../domain/companies/companies.js';
import { type CompanyRules, noRules } from '../domain/sign-in-limits/company-rules.js';
import { createLicence, type LicenceView, listLicences, updateLicence } from '../domain/companies/licences.js';
import { addMember } from '../domain/companies/members.js';
import { type AccountCommand, type OptionValues, Refusal } from './command.js';

/** The lines of the general usage about companies. */
export const companyUsage = `  empresa crear <nombre>      crea una empresa (activa)
  empresa renombrar <id> <nombre>
                              cambia el nombre de una empresa
  empresa suspender <id>      sus administradores dejan de gestionarla y sus puestos dejan de dar el plan
  empresa reactivar <id>      la empresa suspendida vuelve a estar activa
  empresa listar [--nombre <parte>] [--estado activa|suspendida] [--pagina <n>]
                              lista las empresas, las más recientes primero (50 por página)
  empresa licencia <id>       lista las licencias de la empresa: puestos comprados, en uso y vencimiento
  empresa licencia <id> <id_app> --plan <id_plan> --puestos <n> --vence <AAAA-MM-DD>
                              vende a la empresa una licencia de la app, o cambia la que tiene
  empresa miembro <id> <email> [--rol propietario|administrador|miembro]
                              añade una cuenta existente a la empresa (miembro si no se indica el rol);
                              así se nombra a su primer propietario
  empresa reglas <id> [--quitar]
                              muestra las reglas de acceso de sus miembros (redes, métodos, sesiones);
                              con --quitar las quita todas: vuelven las del portal`;

const usageError = (problem: string) =>
  new Refusal(`${problem}\n\nUso: npm run admin -- empresa <orden> [argumentos]\n\n${companyUsage}`, 2);

const text = (values: OptionValues, name: string): string | undefined =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;

const idPattern = /^[1-9][0-9]{0,9}$/;
function id(raw: string | undefined, what: string): number {
  if (raw === undefined || !idPattern.test(raw) || Number(raw) > 2_147_483_647) {
    throw usageError(`«${raw ?? ''}» no es el id de ${what}.`);
  }
  return Number(raw);
}

/** What each sub-order takes: its positionals after the company's, and its options. */
const shapes: Record<string, { positionals: number[]; options: string[]; needs: string }> = {
  crear: { positionals: [1], options: [], needs: 'un nombre' },
  renombrar: { positionals: [2], options: [], needs: 'el id de la empresa y su nombre nuevo' },
  suspender: { positionals: [1], options: [], needs: 'el id de la empresa' },
  reactivar: { positionals: [1], options: [], needs: 'el id de la empresa' },
  listar: { positionals: [0], options: ['nombre', 'estado', 'pagina'], needs: 'ningún argumento' },
  licencia: { positionals: [1, 2], options: ['plan', 'puestos', 'vence'], needs: 'el id de la empresa' },
  miembro: { positionals: [2], options: ['rol'], needs: 'el id de la empresa y un email' },
  reglas: { positionals: [1], options: ['quitar'], needs: 'el id de la empresa' },
};

const day = /^\d{4}-\d{2}-\d{2}$/;

/** The whole order checked before any database is opened: the sub-order, its arguments and its options. */
function check(positionals: string[], options: OptionValues): void {
  const [sub, ...rest] = positionals;
  if (sub === undefined)
    throw usageError(
      'empresa necesita una orden: crear, renombrar, suspender, reactivar, listar, licencia, miembro o reglas.',
    );
  const shape = Object.hasOwn(shapes, sub) ? shapes[sub] : undefined;
  if (!shape) throw usageError(`Orden desconocida: «empresa ${sub}».`);
  if (!shape.positionals.includes(rest.length)) throw usageError(`empresa ${sub} necesita ${shape.needs}.`);
  for (const [name, value] of Object.entries(options)) {
    if (value !== undefined && !shape.options.includes(name)) throw usageError(`empresa ${sub} no lleva --${name}.`);
  }
  if (sub !== 'crear' && sub !== 'listar') id(rest[0], 'una empresa');
  if (sub === 'listar') {
    const estado = text(options, 'estado');
    if (estado !== undefined && estado !== 'activa' && estado !== 'suspendida') {
      throw usageError(`--estado es activa o suspendida, no «${estado}».`);
    }
    const pagina = text(options, 'pagina');
    if (pagina !== undefined && !/^[1-9][0-9]{0,5}$/.test(pagina)) throw usageError(`«${pagina}» no es una página.`);
  }
  if (sub === 'licencia') {
    const named = ['plan', 'puestos', 'vence'].filter((name) => options[name] !== undefined);
    if (rest.length === 1 && named.length > 0) {
      throw usageError('Para vender o cambiar una licencia indica la app: empresa licencia <id> <id_app> …');
    }
    if (rest.length === 2) {
      id(rest[1], 'una app');
      if (named.length !== 3) throw usageError('empresa licencia <id> <id_app> necesita --plan, --puestos y --vence.');
      id(text(options, 'plan'), 'un plan');
      const puestos = text(options, 'puestos') ?? '';
      if (!/^[1-9][0-9]{0,5}$/.test(puestos) || Number(puestos) > 100_000) {
        throw usageError(`--puestos es un número entero entre 1 y 100 000, no «${puestos}».`);
      }
      const vence = text(options, 'vence') ?? '';
      if (!day.test(vence) && Number.isNaN(Date.parse(vence))) {
        throw usageError(`--vence es una fecha (AAAA-MM-DD), no «${vence}».`);
      }
    }
  }
  if (sub === 'miembro') {
    const email = normalizeEmail(rest[1] ?? '');
    if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      throw usageError(`«${rest[1]}» no es un email válido.`);
    }
    const rol = text(options, 'rol');
    if (rol !== undefined && !(companyRoles as readonly string[]).includes(rol)) {
      throw usageError(`--rol es propietario, administrador o miembro, no «${rol}».`);
    }
  }
}

/** The company's rules, one per line. */
function describeRules(rules: CompanyRules): string[] {
  return [
    `  redes: ${rules.redesPermitidas.length === 0 ? 'cualquiera' : rules.redesPermitidas.join(', ')}`,
    `  métodos: ${rules.metodosPermitidos.join(', ')}`,
    `  duración máxima de una sesión: ${rules.sesionMaximaHoras === null ? 'la del portal' : `${rules.sesionMaximaHoras} h`}`,
    `  inactividad: ${rules.inactividadMinutos === null ? 'sin límite' : `${rules.inactividadMinutos} min`}`,
  ];
}

const sameRules = (a: CompanyRules, b: CompanyRules) => describeRules(a).join() === describeRules(b).join();

const stateLabel = (company: CompanyView) => (company.estado === 'activa' ? 'activa' : 'suspendida');

/** A licence in one line, with what the company must know about it. */
function describeLicence(licence: LicenceView): string {
  const line =
    `${licence.app.nombre} (app ${licence.app.id}): plan ${licence.plan.nombre} (${licence.plan.id}), ` +
    `${licence.puestos} puestos, ${licence.enUso} en uso, ${licence.libres} libres, ` +
    `vence ${licence.fechaVencimiento.slice(0, 10)}${licence.vencida ? ' (vencida)' : ''}`;
  return licence.aviso ? `${line}\n  Aviso: ${licence.aviso}` : line;
}

/** Text columns padded to the widest cell. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

const pageSize = 50;

async function run(app: FastifyInstance, positionals: string[], options: OptionValues): Promise<string> {
  const [sub, first = '', second = ''] = positionals;
  switch (sub) {
    case 'crear': {
      const { id: created } = await createCompany(app.db, operatorActor, { nombre: first });
      const company = await findCompany(app.db, created);
      return (
        `Empresa creada: ${company.name} (id ${created}).\n` +
        `Nombra a su primer propietario: npm run admin -- empresa miembro ${created} <email> --rol propietario`
      );
    }
    case 'renombrar': {
      const company = await updateCompany(app.db, operatorActor, id(first, 'una empresa'), { nombre: second });
      return `Empresa ${company.id} renombrada: ${company.nombre}.`;
    }
    case 'suspender':
    case 'reactivar': {
      const companyId = id(first, 'una empresa');
      const estado: StatusWord = sub === 'suspender' ? 'suspendida' : 'activa';
      const before = await findCompany(app.db, companyId);
      const company = await updateCompany(app.db, operatorActor, companyId, { estado });
      if ((before.status === 'suspended') === (estado === 'suspendida')) {
        return `${company.nombre} ya estaba ${stateLabel(company)}: nada que cambiar.`;
      }
      return estado === 'suspendida'
        ? `${company.nombre} suspendida: sus administradores no pueden gestionarla y sus puestos no dan el plan.`
        : `${company.nombre} reactivada.`;
    }
    case 'listar': {
      const page = Number(text(options, 'pagina') ?? '1');
      const result = await listCompanies(app.db, {
        page,
        limit: pageSize,
        nombre: text(options, 'nombre'),
        estado: text(options, 'estado') as StatusWord | undefined,
      });
      if (result.total === 0) return 'No hay empresas que mostrar. Crea una: npm run admin -- empresa crear <nombre>';
      const rows = result.data.map((company) => [
        String(company.id),
        company.nombre,
        company.estado,
        String(company.miembros),
        String(company.licencias),
        company.createdAt.slice(0, 10),
      ]);
      const more = result.hasNextPage ? ` Siguiente: --pagina ${page + 1}.` : '';
      return [
        ...table(['id', 'nombre', 'estado', 'miembros', 'licencias', 'alta'], rows),
        '',
        `${result.total} empresa${result.total === 1 ? '' : 's'}; página ${page} de ${Math.max(1, result.totalPages)}.${more}`,
      ].join('\n');
    }
    case 'licencia': {
      const companyId = id(first, 'una empresa');
      const company = await findCompany(app.db, companyId);
      if (positionals.length === 2) {
        const licences = await listLicences(app.db, companyId);
        if (licences.length === 0) return `${company.name} no tiene licencias.`;
        return [`Licencias de ${company.name}:`, ...licences.map(describeLicence)].join('\n');
      }
      const appId = id(second, 'una app');
      const vence = text(options, 'vence') ?? '';
      const terms = {
        idPlan: Number(text(options, 'plan')),
        puestos: Number(text(options, 'puestos')),
        // A day is its midnight UTC, as the admin panel sends it.
        fechaVencimiento: day.test(vence) ? `${vence}T00:00:00.000Z` : vence,
      };
      const existing = (await listLicences(app.db, companyId)).some((licence) => licence.app.id === appId);
      const licence = existing
        ? await updateLicence(app.db, operatorActor, companyId, appId, terms)
        : await createLicence(app.db, operatorActor, companyId, { idApp: appId, ...terms });
      return `${existing ? 'Licencia cambiada' : 'Licencia vendida'} a ${company.name}:\n${describeLicence(licence)}`;
    }
    case 'miembro': {
      const companyId = id(first, 'una empresa');
      const role = (text(options, 'rol') ?? 'miembro') as CompanyRole;
      const company = await findCompany(app.db, companyId);
      const email = normalizeEmail(second);
      const user = await findUserByEmail(app.db, email);
      if (!user) throw new Refusal(`No existe ninguna cuenta con el email ${email}.`);
      if (user.status !== 'active') {
        throw new Refusal(`${email} no está activa: solo una cuenta activa puede entrar en una empresa.`);
      }
      const added = await app.db.transaction(async (tx) => {
        if (!(await addMember(tx, companyId, user.id, role))) return false;
        await recordAudit(tx, operatorActor, [
          {
            action: 'company.member_add',
            target: { type: 'company', id: companyId },
            details: { userId: user.id, email: user.email, rol: role },
            companyId,
          },
        ]);
        return true;
      });
      if (!added) {
        const [membership] = await app.db
          .select({ role: companyMembers.role })
          .from(companyMembers)
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, user.id)));
        return `${email} ya es miembro de ${company.name} (${membership?.role ?? 'miembro'}): nada que cambiar.`;
      }
      return `${email} es ahora ${role} de ${company.name}.`;
    }
    case 'reglas': {
      const companyId = id(first, 'una empresa');
      const before = await companyDetail(app.db, companyId, null);
      const company =
        options.quitar === true ? await updateCompanySettings(app.db, operatorActor, companyId, null, noRules) : before;
      const lines = describeRules(company);
      if (options.quitar !== true) return [`Reglas de acceso de ${company.nombre}:`, ...lines].join('\n');
      return sameRules(before, company)
        ? `${company.nombre} no tenía reglas propias: nada que cambiar.`
        : [`Reglas de acceso de ${company.nombre} quitadas; ahora:`, ...lines].join('\n');
    }
    default:
      throw usageError(`Orden desconocida: «empresa ${sub}».`);
  }
}

/** `npm run admin -- empresa <orden> …`: one order with sub-orders, each checked before any database is opened. */
export const companyCommands: Record<string, AccountCommand> = {
  empresa: {
    kind: 'account',
    positionals: 'varios',
    options: {
      nombre: { type: 'string' },
      estado: { type: 'string' },
      pagina: { type: 'string' },
      plan: { type: 'string' },
      puestos: { type: 'string' },
      vence: { type: 'string' },
      rol: { type: 'string' },
      quitar: { type: 'boolean' },
    },
    checkPositionals: check,
    run,
  },
};
