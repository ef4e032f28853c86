import {
  companyRoleLabel,
  invitationText,
  joinedText,
  pendingCompanies,
  pendingJoinText,
  sameAddress,
} from '../labels';

const minera = { id: 12, nombre: 'Minera Andina S.A.' };

describe('what a member reads about companies', () => {
  it('labels the roles, and shows an unknown one as the API names it', () => {
    expect(['propietario', 'administrador', 'miembro'].map(companyRoleLabel)).toEqual([
      'Propietario',
      'Administrador',
      'Miembro',
    ]);
    expect(companyRoleLabel('auditor')).toBe('auditor');
  });

  it('words an invitation, its acceptance and a domain join waiting for approval', () => {
    expect(invitationText({ empresa: minera, rol: 'miembro' })).toBe(
      'Minera Andina S.A. te invitó a unirte como Miembro',
    );
    expect(joinedText({ empresa: minera, rol: 'administrador' })).toBe(
      'Te uniste a Minera Andina S.A. como Administrador.',
    );
    expect(pendingJoinText(minera)).toBe('Tu solicitud para unirte a Minera Andina S.A. está pendiente de aprobación');
  });

  it('picks the memberships waiting for approval (none from a user without the list)', () => {
    const waiting = { ...minera, rol: 'miembro' as const, estado: 'pendiente' as const };
    const active = { id: 13, nombre: 'Otra S.A.', rol: 'miembro' as const, estado: 'activo' as const };
    expect(pendingCompanies([waiting, active])).toEqual([waiting]);
    expect(pendingCompanies(undefined)).toEqual([]);
  });

  it('compares addresses as the API does: case and surrounding spaces aside', () => {
    expect(sameAddress(' Ana@Minera.PE', 'ana@minera.pe ')).toBe(true);
    expect(sameAddress('ana@minera.pe', 'ana@minera.com')).toBe(false);
    expect(sameAddress(null, null)).toBe(false);
  });
});
