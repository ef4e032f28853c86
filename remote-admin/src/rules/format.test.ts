import { administratorsShown, formatChange, formatExpiryDate, formatRegistrationDate, formatWholeUsd } from './format';

describe('admin formats', () => {
  it('shows registration dates in es-ES short format, Sin fecha when missing', () => {
    expect(formatRegistrationDate('2026-03-05T12:00:00.000Z')).toBe('5/3/2026');
    expect(formatRegistrationDate(null)).toBe('Sin fecha');
    expect(formatRegistrationDate('nunca')).toBe('Sin fecha');
  });

  it('shows an expiry as the UTC calendar day it was saved as', () => {
    expect(formatExpiryDate('2027-03-15T00:00:00.000Z')).toBe('15/3/2027');
    expect(formatExpiryDate(null)).toBe('Sin fecha');
  });

  it('shows administrators as the count minus 2, never below zero', () => {
    expect(administratorsShown(5)).toBe(3);
    expect(administratorsShown(1)).toBe(0);
  });

  it('shows revenue in USD without decimals', () => {
    expect(formatWholeUsd(19.6)).toBe('20 USD');
    expect(formatWholeUsd(12345)).toBe('12.345 USD');
  });

  it('describes the change against the previous month', () => {
    expect(formatChange(12.5)).toBe('+12,5 % vs. mes anterior');
    expect(formatChange(-3)).toBe('−3 % vs. mes anterior');
    expect(formatChange(null)).toBe('Sin datos del mes anterior');
  });
});
