// The benches that fill a PostgreSQL of their own before measuring (a million users, 10,000 companies, a directory of
// 10,000 people, a stream of partner events) call this first: they run only when BENCH_DATABASE_URL names a server.
// CI's short run of the benches (`node scripts/bench.mjs smoke`) leaves out every bench that calls it.

/** BENCH_DATABASE_URL, or, without it, nothing after saying why `bench` is left out (the caller exits 0). */
export function seededDatabaseUrl(bench: string): string | undefined {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) console.log(`${bench}: omitido, necesita PostgreSQL en BENCH_DATABASE_URL.`);
  return url;
}
