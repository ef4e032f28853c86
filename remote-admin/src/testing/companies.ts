import type { Company } from '../api/company-types';

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
