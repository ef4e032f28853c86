import type { AuditStream, Company } from '../api/company-types';

/** A company as `GET /empresas/:id` answers it, for the company page's tests: no rules, the viewer holds no role in it. */
export const company = (over: Partial<Company> = {}): Company => ({
  id: 4,
  nombre: 'Minera Andina S.A.',
  estado: 'activa',
  altaPorDominio: 'automatica',
  exigirSegundoFactor: false,
  permitirDispositivosConfiables: true,
  confiarSegundoFactorDelProveedor: false,
  redesPermitidas: [],
  metodosPermitidos: ['contrasena', 'google', 'apple', 'llave', 'empresa'],
  sesionMaximaHoras: null,
  inactividadMinutos: null,
  miembros: 3,
  pendientes: 0,
  createdAt: '2027-01-05T10:00:00.000Z',
  miRol: null,
  ...over,
});

/** A company's SIEM destination as `GET /empresas/:id/flujos-auditoria` lists it: Splunk HEC with a secret, no error. */
export const auditStream = (over: Partial<AuditStream> = {}): AuditStream => ({
  id: '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6',
  tipo: 'https',
  url: 'https://splunk.andina.pe:8088/services/collector/event',
  formato: 'splunk-hec',
  cabecera: 'Authorization',
  tieneSecreto: true,
  ca: null,
  estado: 'activo',
  entregadoHasta: null,
  entregadoEn: null,
  retraso: { entradas: 0, segundos: 0 },
  ultimoError: null,
  proximoIntento: null,
  creadoEn: '2027-01-30T10:00:00.000Z',
  ...over,
});
