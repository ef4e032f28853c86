// How much slower than quiet this machine runs now: one factor, taken once when a test process starts (a fixed loop's
// time against its time on a quiet machine, never below 1), that stretches the few bounds standing for a speed the
// product promises (docs/decisions/0167-tests-and-the-clock.md). `TEST_SLOWNESS` gives it instead of measuring.

/** A quiet core runs a million turns of the loop in about 1.6 ms (the least of many runs on the project's machines). */
const quietMsPerMillion = 1.6;
const turns = 10_000_000;

/** How long `count` turns of a loop that allocates nothing take now (and its value, so that it cannot be skipped). */
function loop(count: number): { ms: number; value: number } {
  const started = performance.now();
  let x = 0x9e3779b9;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x |= 0;
  }
  return { ms: performance.now() - started, value: x };
}

/** The median of five runs against the quiet time, at least 1. */
export function measureSlowness(): number {
  loop(1_000_000);
  const runs = Array.from({ length: 5 }, () => loop(turns).ms).sort((a, b) => a - b);
  return Math.max(1, runs[2]! / ((turns / 1_000_000) * quietMsPerMillion));
}

function fromEnvironment(): number | undefined {
  const given = Number(process.env.TEST_SLOWNESS);
  return Number.isFinite(given) && given >= 1 ? given : undefined;
}

/** This process's factor, measured (or read) once. */
export const slowness = fromEnvironment() ?? measureSlowness();

/** `ms` stretched by the factor: a bound for a speed the product promises, on the machine as loaded as it is now. */
export const scaled = (ms: number) => Math.round(ms * slowness);
