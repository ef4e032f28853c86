import { dayLabel, linePoints, monthLabel, niceMax, scaleValues } from './chart-scale';

describe('chart scales', () => {
  it('rounds the axis top up to 1, 2 or 5 × 10ⁿ', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(3)).toBe(5);
    expect(niceMax(19)).toBe(20);
    expect(niceMax(20)).toBe(20);
    expect(niceMax(51)).toBe(100);
    expect(niceMax(1234)).toBe(2000);
  });

  it('scales each value against the axis top', () => {
    expect(scaleValues([0, 5, 10])).toEqual({ max: 10, ratios: [0, 0.5, 1] });
  });

  it('puts each point in the middle of its column, higher values nearer the top', () => {
    expect(linePoints([0, 10], 600, 250)).toBe('150.0,250.0 450.0,0.0');
  });

  it('labels days and months in Spanish', () => {
    expect(dayLabel('2026-11-05')).toBe('5/11');
    expect(monthLabel('2026-11')).toBe('nov 2026');
  });
});
