import {
  type ConfiguredProviders,
  SIGN_IN_METHOD_NAMES,
  SIGN_IN_METHOD_PHRASES,
  SIGN_IN_METHODS,
} from '@portal/shared';
import type { Company } from '../api/company-types';

/**
 * The company's own rules for its members, as the 'Ajustes' section edits them (docs/decisions/0103-company-rules.md):
 * the networks as lines of text, the methods, the limits; and the warning before a rule that would lock the person
 * saving it out of their own account.
 */
export type SignInMethod = Company['metodosPermitidos'][number];

export { SIGN_IN_METHODS };

export const TEXT_SIGN_IN_RULES = {
  title: 'Reglas de acceso de los miembros',
  intro:
    'Se aplican a los miembros de la empresa, nunca a nadie más. Si alguien pertenece a varias empresas, manda la regla más estricta.',
  networks: 'Redes permitidas',
  networksHint: 'Una red por línea, IPv4 o IPv6 con su prefijo (por ejemplo 203.0.113.0/24). Vacío: cualquier red.',
  methods: 'Métodos de inicio de sesión permitidos',
  methodNames: SIGN_IN_METHOD_NAMES,
  methodPhrases: SIGN_IN_METHOD_PHRASES,
  maxHours: 'Duración máxima de una sesión (horas, 1 a 720)',
  idleMinutes: 'Cerrar la sesión tras minutos sin uso (5 a 1440)',
  limitHint: 'Vacío: sin límite propio de la empresa.',
  noMethod: 'Marca al menos un método de inicio de sesión',
  badNetwork: (line: string) =>
    `«${line}» no es una red válida: escribe una dirección IPv4 o IPv6 con su prefijo, como 203.0.113.0/24`,
  badNumber: (label: string) => `Revisa «${label}»: escribe un número entero en el rango indicado o déjalo vacío`,
  lockedNetwork: (address: string) =>
    `Estás conectado desde ${address}, que no está en las redes permitidas: al guardar se cerrará tu sesión y no podrás volver a entrar desde aquí.`,
  otherCompanySignIn: 'el inicio de sesión de otra empresa',
  lockedMethod: (method: string) =>
    `Has iniciado sesión con ${method}, que dejaría de estar permitido: al guardar se cerrará tu sesión y tendrás que entrar con otro método.`,
  undo: 'Para deshacerlo, otro propietario o administrador de la empresa puede cambiar las reglas desde una red y un método permitidos, y un administrador de la plataforma puede quitarlas siempre (en su panel o con «npm run admin -- empresa reglas <id> --quitar»).',
  confirm: 'Entiendo que puedo quedarme sin acceso',
  save: 'Guardar reglas',
  saving: 'Guardando...',
  saved: 'Reglas de acceso guardadas',
  lift: 'Quitar todas las reglas',
  lifted: 'Reglas de acceso quitadas: los miembros vuelven a las reglas del portal',
} as const;

/** The rules the form edits: the networks as the lines typed, the limits as the text of their fields. */
export interface RulesDraft {
  networks: string;
  methods: SignInMethod[];
  maxHours: string;
  idleMinutes: string;
}

export type RulesInput = Pick<
  Company,
  'redesPermitidas' | 'metodosPermitidos' | 'sesionMaximaHoras' | 'inactividadMinutos'
>;

export function draftOf(company: RulesInput): RulesDraft {
  return {
    networks: company.redesPermitidas.join('\n'),
    methods: [...company.metodosPermitidos],
    maxHours: company.sesionMaximaHoras === null ? '' : String(company.sesionMaximaHoras),
    idleMinutes: company.inactividadMinutos === null ? '' : String(company.inactividadMinutos),
  };
}

/** What lifting the rules sends: the portal's own rules. */
export const NO_RULES: RulesInput = {
  redesPermitidas: [],
  metodosPermitidos: [...SIGN_IN_METHODS],
  sesionMaximaHoras: null,
  inactividadMinutos: null,
};

/** An address as a number and its width (32 or 128 bits); undefined when it is not one. */
function parseAddress(text: string): { value: bigint; bits: 32 | 128 } | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text)?.[1];
  if (mapped) return parseAddress(mapped);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(text)) {
    const parts = text.split('.').map(Number);
    if (parts.some((part) => part > 255)) return undefined;
    return { value: parts.reduce((sum, part) => (sum << 8n) + BigInt(part), 0n), bits: 32 };
  }
  if (!/^[0-9a-f:]+$/i.test(text) || text.split('::').length > 2) return undefined;
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const all = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  if (all.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  return { value: all.reduce((sum, group) => (sum << 16n) + BigInt(Number.parseInt(group, 16)), 0n), bits: 128 };
}

/** A network as typed ('10.0.0.0/8', or an address alone); undefined when it is not one. */
function parseNetwork(text: string): { value: bigint; bits: 32 | 128; prefix: number } | undefined {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const parsed = parseAddress(address);
  if (!parsed || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) return undefined;
  const prefix = prefixText === undefined ? parsed.bits : Number(prefixText);
  return prefix > parsed.bits ? undefined : { ...parsed, prefix };
}

/** Whether `address` is inside one of `networks` (none: any address is). */
export function addressAllowed(networks: readonly string[], address: string): boolean {
  if (networks.length === 0) return true;
  const where = parseAddress(address);
  if (!where) return false;
  return networks.some((text) => {
    const network = parseNetwork(text);
    if (!network || network.bits !== where.bits) return false;
    const shift = BigInt(network.bits - network.prefix);
    return where.value >> shift === network.value >> shift;
  });
}

/** The limit typed, null when empty; undefined when it is not a whole number in range. */
function limitOf(text: string, min: number, max: number): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= min && value <= max ? value : undefined;
}

/**
 * The methods this portal offers a company, in the screens' order: Google and Apple only when the deployment has them
 * configured (`GET /auth/social/proveedores`, what the sign-in page asks too). Unknown (`null`, the question failed):
 * every method, rather than hiding one that may be on.
 */
export function offeredMethods(providers: ConfiguredProviders | null): SignInMethod[] {
  return SIGN_IN_METHODS.filter(
    (method) => !providers || (method !== 'google' && method !== 'apple') || providers[method],
  );
}

/**
 * The draft as the API takes it, or the Spanish message saying what to fix. A method not `offered` keeps its state
 * (it is sent as it was), but it alone is no way in: at least one offered method is asked for.
 */
export function rulesFromDraft(
  draft: RulesDraft,
  offered: readonly SignInMethod[] = SIGN_IN_METHODS,
): { rules: RulesInput } | { error: string } {
  const T = TEXT_SIGN_IN_RULES;
  const networks = draft.networks
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const bad = networks.find((line) => !parseNetwork(line));
  if (bad !== undefined) return { error: T.badNetwork(bad) };
  if (!draft.methods.some((method) => offered.includes(method))) return { error: T.noMethod };
  const maxHours = limitOf(draft.maxHours, 1, 720);
  if (maxHours === undefined) return { error: T.badNumber(T.maxHours) };
  const idleMinutes = limitOf(draft.idleMinutes, 5, 1440);
  if (idleMinutes === undefined) return { error: T.badNumber(T.idleMinutes) };
  return {
    rules: {
      redesPermitidas: networks,
      metodosPermitidos: SIGN_IN_METHODS.filter((method) => draft.methods.includes(method)),
      sesionMaximaHoras: maxHours,
      inactividadMinutos: idleMinutes,
    },
  };
}

/**
 * The warnings for the person saving `rules` when they are a member bound by them (an owner or administrator, not
 * the platform): the network they are on left out, the method they signed in with taken away. Empty: nothing locks
 * them out.
 */
export function lockoutWarnings(rules: RulesInput, access: Company['tuAcceso'], bound: boolean): string[] {
  if (!bound || !access) return [];
  const T = TEXT_SIGN_IN_RULES;
  const warnings: string[] = [];
  if (!addressAllowed(rules.redesPermitidas, access.direccion)) warnings.push(T.lockedNetwork(access.direccion));
  // Another company's provider is this company's sign-in only while it restricts no method (decision 0147).
  if (access.deOtraEmpresa && rules.metodosPermitidos.length < SIGN_IN_METHODS.length) {
    warnings.push(T.lockedMethod(T.otherCompanySignIn));
  } else if (access.metodo !== null && !access.deOtraEmpresa && !rules.metodosPermitidos.includes(access.metodo)) {
    warnings.push(T.lockedMethod(T.methodPhrases[access.metodo]));
  }
  return warnings;
}
