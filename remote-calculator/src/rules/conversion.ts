/** A kind of range the user can pick: the bounds and unit it fills in. */
export interface RangeType {
  id: string;
  label: string;
  min: number;
  max: number;
  unit: string;
}

/** Spec: the analog signals a transmitter sends. */
export const SIGNAL_TYPES: readonly [RangeType, ...RangeType[]] = [
  { id: '4-20mA', label: '4-20mA', min: 4, max: 20, unit: 'mA' },
  { id: '0-20mA', label: '0-20mA', min: 0, max: 20, unit: 'mA' },
  { id: '0-5V', label: '0-5V', min: 0, max: 5, unit: 'V' },
  { id: '0-10V', label: '0-10V', min: 0, max: 10, unit: 'V' },
];

/** Spec: the physical magnitudes a signal can stand for, with their usual ranges. */
export const MAGNITUDES: readonly [RangeType, ...RangeType[]] = [
  { id: 'pressure-kpa', label: 'Presión (kPa)', min: 0, max: 100, unit: 'kPa' },
  { id: 'pressure-psi', label: 'Presión (psi)', min: 0, max: 14.5, unit: 'psi' },
  { id: 'temperature-c', label: 'Temperatura (°C)', min: 0, max: 100, unit: '°C' },
  { id: 'temperature-f', label: 'Temperatura (°F)', min: 32, max: 212, unit: '°F' },
  { id: 'current-ma', label: 'Corriente (mA)', min: 4, max: 20, unit: 'mA' },
  { id: 'voltage-v', label: 'Voltaje (V)', min: 0, max: 10, unit: 'V' },
  { id: 'flow-e3m3d', label: 'Caudal (E3M3/d)', min: 0, max: 5000, unit: 'E3M3/d' },
  { id: 'time-s', label: 'Tiempo (s)', min: 0, max: 3600, unit: 's' },
];

// Plain decimal notation only: a comma is accepted as the separator (Spanish keyboards), exponents are not.
const DECIMAL = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;

/** The number a user typed, or NaN when the text is not a decimal number (so `convert` answers null). */
export function parseDecimal(text: string): number {
  const trimmed = text.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed.replace(',', '.')) : NaN;
}

/**
 * Maps `value` linearly from [fromMin, fromMax] onto [toMin, toMax], with 2 decimals. Values outside the source range
 * extrapolate (a 24 mA signal is over range, and the user should see by how much; `isOutsideRange` says so), and a
 * minimum above the maximum maps in reverse (a reverse-acting transmitter). Null when any number is missing or the
 * source range is empty.
 */
export function convert(value: number, fromMin: number, fromMax: number, toMin: number, toMax: number): string | null {
  if (![value, fromMin, fromMax, toMin, toMax].every(Number.isFinite) || fromMin === fromMax) return null;
  const result = toMin + ((value - fromMin) * (toMax - toMin)) / (fromMax - fromMin);
  // Rounding a tiny negative result would otherwise show "-0.00".
  const fixed = result.toFixed(2);
  return Number(fixed) === 0 ? '0.00' : fixed;
}

/** Whether `value` lies beyond the range's ends, the minimum and the maximum taken in either order. */
export function isOutsideRange(value: number, min: number, max: number): boolean {
  return value < Math.min(min, max) || value > Math.max(min, max);
}

/** A minimum above the maximum: the range of a reverse-acting transmitter (20 mA at the bottom of the scale). */
export function isReversedRange(min: number, max: number): boolean {
  return min > max;
}
