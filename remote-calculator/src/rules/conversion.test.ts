import { convert, isOutsideRange, isReversedRange, MAGNITUDES, parseDecimal, SIGNAL_TYPES } from './conversion';

describe('convert', () => {
  it.each([
    ['12 mA on 4-20 to 0-100 kPa', 12, 4, 20, 0, 100, '50.00'],
    ['4 mA (bottom of the range)', 4, 4, 20, 0, 100, '0.00'],
    ['20 mA (top of the range)', 20, 4, 20, 0, 100, '100.00'],
    ['212 °F back to mA', 212, 32, 212, 4, 20, '20.00'],
    ['32 °F back to mA', 32, 32, 212, 4, 20, '4.00'],
    ['2.5 V on 0-10 V to 0-100', 2.5, 0, 10, 0, 100, '25.00'],
    ['24 mA over range extrapolates', 24, 4, 20, 0, 100, '125.00'],
    ['2 mA under range extrapolates', 2, 4, 20, 0, 100, '-12.50'],
    ['a result rounded to 2 decimals', 5, 4, 20, 0, 14.5, '0.91'],
    ['a tiny negative result shows as zero', 3.9999, 4, 20, 0, 100, '0.00'],
    ['an empty output range gives its only value', 12, 4, 20, 7, 7, '7.00'],
  ])('%s', (_case, value, fromMin, fromMax, toMin, toMax, expected) => {
    expect(convert(value, fromMin, fromMax, toMin, toMax)).toBe(expected);
  });

  it.each([
    ['the value is not a number', NaN, 4, 20, 0, 100],
    ['the source minimum is not a number', 12, NaN, 20, 0, 100],
    ['the source maximum is not a number', 12, 4, NaN, 0, 100],
    ['the target minimum is not a number', 12, 4, 20, NaN, 100],
    ['the target maximum is not a number', 12, 4, 20, 0, NaN],
    ['the source bounds are equal (division by zero)', 12, 10, 10, 0, 100],
  ])('gives null when %s', (_case, value, fromMin, fromMax, toMin, toMax) => {
    expect(convert(value, fromMin, fromMax, toMin, toMax)).toBeNull();
  });

  it('converts decimals typed with a comma', () => {
    expect(convert(parseDecimal('12,5'), parseDecimal('4'), parseDecimal('20'), 0, 100)).toBe('53.13');
  });
});

describe('isOutsideRange', () => {
  it.each([
    ['inside 4-20', 12, 4, 20, false],
    ['on the lower bound', 4, 4, 20, false],
    ['on the upper bound', 20, 4, 20, false],
    ['below 4-20', 2, 4, 20, true],
    ['above 4-20', 24, 4, 20, true],
    ['inside a reversed 20-4', 12, 20, 4, false],
    ["on a reversed range's bound", 4, 20, 4, false],
    ['above a reversed 4-2', 12, 4, 2, true],
    ['below a reversed 4-2', 1, 4, 2, true],
  ])('%s: %d in %d-%d is %s', (_case, value, min, max, expected) => {
    expect(isOutsideRange(value, min, max)).toBe(expected);
  });
});

describe('isReversedRange', () => {
  it.each([
    [4, 20, false],
    [20, 4, true],
    [4, 2, true],
    [7, 7, false],
    [-10, -20, true],
  ])('%d-%d is %s', (min, max, expected) => {
    expect(isReversedRange(min, max)).toBe(expected);
  });

  it('still converts across a reversed range (a reverse-acting transmitter)', () => {
    expect(convert(16, 20, 4, 0, 100)).toBe('25.00');
    expect(convert(12, 4, 2, 0, 100)).toBe('-400.00');
  });
});

describe('parseDecimal', () => {
  it.each([
    ['12', 12],
    ['12.5', 12.5],
    ['12,5', 12.5],
    ['-3', -3],
    ['-0,25', -0.25],
    ['+4', 4],
    ['.5', 0.5],
    [',5', 0.5],
    ['12.', 12],
    ['  7 ', 7],
  ])('reads %j as %d', (text, expected) => {
    expect(parseDecimal(text)).toBe(expected);
  });

  it.each(['', ' ', '-', '.', 'abc', '1e', '1e3', '12abc', '1.2.3', '1,2,3', '1 000', '0x10', 'Infinity'])(
    'rejects %j',
    (text) => {
      expect(parseDecimal(text)).toBeNaN();
    },
  );
});

describe('range types', () => {
  it('offers the 4 signal types of the spec', () => {
    expect(SIGNAL_TYPES.map(({ label, min, max, unit }) => [label, min, max, unit])).toEqual([
      ['4-20mA', 4, 20, 'mA'],
      ['0-20mA', 0, 20, 'mA'],
      ['0-5V', 0, 5, 'V'],
      ['0-10V', 0, 10, 'V'],
    ]);
  });

  it('offers the 8 magnitudes of the spec', () => {
    expect(MAGNITUDES.map(({ label, min, max, unit }) => [label, min, max, unit])).toEqual([
      ['Presión (kPa)', 0, 100, 'kPa'],
      ['Presión (psi)', 0, 14.5, 'psi'],
      ['Temperatura (°C)', 0, 100, '°C'],
      ['Temperatura (°F)', 32, 212, '°F'],
      ['Corriente (mA)', 4, 20, 'mA'],
      ['Voltaje (V)', 0, 10, 'V'],
      ['Caudal (E3M3/d)', 0, 5000, 'E3M3/d'],
      ['Tiempo (s)', 0, 3600, 's'],
    ]);
  });
});
