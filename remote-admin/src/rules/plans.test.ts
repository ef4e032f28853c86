import {
  canSavePlan,
  defaultExpiry,
  expiryToIso,
  expiryToSend,
  initialExpiry,
  planExpires,
  visiblePlanApps,
} from './plans';

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

  it('disables Guardar while saving, at plan 0 and without a valid date to send', () => {
    expect(canSavePlan(2, '2027-03-15T00:00:00.000Z', false)).toBe(true);
    expect(canSavePlan(2, '2027-03-15T00:00:00.000Z', true)).toBe(false);
    expect(canSavePlan(0, '2027-03-15T00:00:00.000Z', false)).toBe(false);
    expect(canSavePlan(2, null, false)).toBe(false);
  });

  it('gives a free plan no expiry to show or ask for; any other plan, and no plan yet, have one', () => {
    const planesApp = [
      { id: 1, nombre: 'free' },
      { id: 2, nombre: 'PRO' },
      { id: 3, nombre: ' Free ' },
    ];
    expect(planExpires(1, planesApp)).toBe(false);
    expect(planExpires(3, planesApp)).toBe(false);
    expect(planExpires(2, planesApp)).toBe(true);
    expect(planExpires(0, planesApp)).toBe(true);
  });

  it('sends the chosen day, or for a free plan the day a new plan starts with, since the call needs one', () => {
    const today = new Date(2026, 10, 21);
    expect(expiryToSend(true, '2027-03-15', today)).toBe('2027-03-15T00:00:00.000Z');
    expect(expiryToSend(true, '', today)).toBeNull();
    // A free plan's date is never shown, so a date left unfinished under a paid plan does not block it.
    expect(expiryToSend(false, '', today)).toBe('2027-11-21T00:00:00.000Z');
    expect(expiryToSend(false, '2030-01-01', today)).toBe('2027-11-21T00:00:00.000Z');
  });

  it('hides app 4', () => {
    const infos = [1, 2, 4, 3].map((id) => ({ app: { id } }));
    expect(visiblePlanApps(infos).map((info) => info.app.id)).toEqual([1, 2, 3]);
  });
});
