/** The top of a chart's value axis: the smallest 1, 2 or 5 × 10ⁿ at or above the largest value (at least 1). */
export function niceMax(largest: number): number {
  if (!(largest > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(largest));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= largest) return step * magnitude;
  }
  return 10 * magnitude;
}

/** Each value as a share (0-1) of the axis top. */
export function scaleValues(values: number[]): { max: number; ratios: number[] } {
  const max = niceMax(Math.max(0, ...values));
  return { max, ratios: values.map((value) => Math.max(0, value) / max) };
}

/**
 * Polyline points of a line chart in a `width` × `height` box: one point in the middle of each of the equal columns the
 * labels sit in, higher values nearer the top.
 */
export function linePoints(values: number[], width: number, height: number): string {
  const { ratios } = scaleValues(values);
  return ratios
    .map((ratio, i) => `${(((i + 0.5) / ratios.length) * width).toFixed(1)},${(height - ratio * height).toFixed(1)}`)
    .join(' ');
}

/** 'YYYY-MM-DD' → '21/11' (es-ES day/month), read as a calendar day. */
export function dayLabel(date: string): string {
  const [, month, day] = date.split('-');
  return `${Number(day)}/${Number(month)}`;
}

const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];

/** 'YYYY-MM' → 'nov 2026'. */
export function monthLabel(month: string): string {
  const [year, number] = month.split('-');
  return `${MONTHS[Number(number) - 1] ?? number} ${year}`;
}
