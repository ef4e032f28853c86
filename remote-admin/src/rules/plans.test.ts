import { canSavePlan, defaultExpiry, expiryToIso, initialExpiry, visiblePlanApps } from './plans';

describe('plan modal rules (spec §5, §9)', () => {
  it('defaults the expiry to today plus one year', () => {
    expect(defaultExpiry(new Date(2026, 10, 21))).toBe('2027-11-21');
    expect(defaultExpiry(new Date(2028, 1, 29))).toBe('2029-02-28');
  });

  it("starts from the current plan's expiry when there is one", () => {
    expect(initialExpiry('2027-03-15T00:00:00.000Z', new Date(2026, 0, 1))).toBe('2027-03-15');
    expect(initialExpiry(null, new Date(2026, 0, 1))).toBe('2027-01-01');
  });

  it('sends the chosen day as midnight UTC', () => {
    expect(expiryToIso('2027-03-15')).toBe('2027-03-15T00:00:00.000Z');
    expect(expiryToIso('2027-02-30')).toBeNull();
    expect(expiryToIso('')).toBeNull();
  });

  it('disables Guardar while saving, at plan 0 and without a valid date', () => {
    expect(canSavePlan(2, '2027-03-15', false)).toBe(true);
    expect(canSavePlan(2, '2027-03-15', true)).toBe(false);
    expect(canSavePlan(0, '2027-03-15', false)).toBe(false);
    expect(canSavePlan(2, '', false)).toBe(false);
  });

  it('hides app 4', () => {
    const infos = [1, 2, 4, 3].map((id) => ({ app: { id } }));
    expect(visiblePlanApps(infos).map((info) => info.app.id)).toEqual([1, 2, 3]);
  });
});
