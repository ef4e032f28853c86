import { companiesAskingSecondFactor, secondFactorAskedText } from '../companies';

const minera = { id: 12, nombre: 'Minera Andina S.A.', rol: 'miembro' as const, estado: 'activo' as const };

describe('companies asking for a second factor', () => {
  it('are the active memberships whose company waits for one', () => {
    const asking = { ...minera, segundoFactorPendiente: true as const };
    const waitingApproval = { ...asking, id: 13, estado: 'pendiente' as const };
    expect(companiesAskingSecondFactor([asking, minera, waitingApproval])).toEqual([asking]);
    expect(companiesAskingSecondFactor(undefined)).toEqual([]);
  });

  it('say why the seat waits and where to set one up', () => {
    expect(secondFactorAskedText(minera)).toBe(
      'Minera Andina S.A. pide un segundo factor para usar sus puestos: configúralo en Seguridad',
    );
  });
});
