/**
 * The company answers of the API's contract (docs/api.md, 'Empresas'). Hand-written while the API's schemas for
 * companies are not exported to `@portal/api/types`; their names and fields are the API's.
 */
export type CompanyRole = 'propietario' | 'administrador' | 'miembro';
export type CompanyStatus = 'activa' | 'suspendida';
export type DomainJoin = 'automatica' | 'aprobacion';

/** A row of the platform's company list. */
export interface CompanyListItem {
  id: number;
  nombre: string;
  estado: CompanyStatus;
  miembros: number;
  licencias: number;
  createdAt: string;
}

export interface Company {
  id: number;
  nombre: string;
  estado: CompanyStatus;
  altaPorDominio: DomainJoin;
  exigirSegundoFactor: boolean;
  miembros: number;
  createdAt: string;
  /** The viewer's role in it; null for a platform administrator who is not a member. */
  miRol: CompanyRole | null;
}

export interface Licence {
  id: number;
  app: { id: number; nombre: string };
  plan: { id: number; nombre: string };
  puestos: number;
  enUso: number;
  libres: number;
  excedidos: number;
  fechaVencimiento: string;
  vencida: boolean;
  /** What the company must know (seats over those bought, an expired licence), in the API's Spanish. */
  aviso?: string;
}

export interface LicenceInput {
  idPlan: number;
  puestos: number;
  fechaVencimiento: string;
}

export interface Member {
  idUsuario: number;
  email: string;
  nombre: string;
  apellido: string;
  rol: CompanyRole;
  estado: 'activo' | 'pendiente';
  segundoFactor: boolean;
  /** The ids of the apps whose seat the member holds. */
  puestos: number[];
  desde: string;
}

/** A list paged by cursor (members, seats): `siguiente` is the next page's cursor, null on the last. */
export interface CursorPage<T> {
  data: T[];
  total: number;
  siguiente: string | null;
}

export interface Seat {
  idUsuario: number;
  email: string;
  nombre: string;
  apellido: string;
  idApp: number;
  asignadoEn: string;
}

export interface Invitation {
  id: number;
  email: string;
  rol: CompanyRole;
  estado: 'pendiente' | 'aceptada' | 'revocada' | 'vencida';
  enviadaEn: string;
  vence: string;
}

export interface Domain {
  dominio: string;
  verificado: boolean;
  verificadoPor: 'dns' | 'admin' | null;
  registroTxt: { nombre: string; valor: string };
}

export interface SeatReportRow {
  app: { id: number; nombre: string };
  plan: { id: number; nombre: string };
  comprados: number;
  enUso: number;
  libres: number;
  excedidos: number;
  fechaVencimiento: string;
  vencePronto: boolean;
  vencida: boolean;
}

/** A company in the signed-in person's `GET /auth/user` (`empresas[]`). */
export interface CompanyMembership {
  id: number;
  nombre: string;
  rol: CompanyRole;
  estado: 'activo' | 'pendiente';
}
