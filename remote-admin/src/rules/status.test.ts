import { statusLabel } from './status';

describe('statusLabel (spec §4)', () => {
  it('names the three statuses in Spanish', () => {
    expect(statusLabel('active')).toBe('Activo');
    expect(statusLabel('pending_verification')).toBe('Pendiente Verificación');
    expect(statusLabel('suspended')).toBe('Suspendido');
  });

  it('shows other values raw and a missing one as Sin estado', () => {
    expect(statusLabel('archived')).toBe('archived');
    expect(statusLabel(undefined)).toBe('Sin estado');
    expect(statusLabel(null)).toBe('Sin estado');
    expect(statusLabel('')).toBe('Sin estado');
  });
});
