import type { CompanyAppRoles } from '../api/company-types';
import { appRoleNames, appRolesOf } from './app-roles';

const catalogue: CompanyAppRoles[] = [
  {
    idApp: 2,
    nombreApp: 'Control Max 360',
    roles: [{ clave: 'operador', nombre: 'Operador de planta', descripcion: '', porDefecto: true }],
  },
];

describe("an app's roles as a company reads them", () => {
  it('names the keys, says a deleted one is deleted, and shows the keys until the roles are read', () => {
    expect(appRoleNames(catalogue, 2, ['operador', 'auditor'])).toEqual([
      'Operador de planta',
      'auditor (rol eliminado)',
    ]);
    expect(appRoleNames(null, 2, ['operador'])).toEqual(['operador']);
  });

  it("offers an app's roles, none for an app without a licence", () => {
    expect(appRolesOf(catalogue, 2).map((role) => role.clave)).toEqual(['operador']);
    expect(appRolesOf(catalogue, 3)).toEqual([]);
    expect(appRolesOf(null, 2)).toEqual([]);
  });
});
