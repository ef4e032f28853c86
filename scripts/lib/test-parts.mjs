// How the runner cuts a suite's files into parts that either lane can take (scripts/test.mjs): the heaviest file first
// into the part with the least so far. A file's weight stands in for its time: its size, three times over for a file
// that starts processes of its own (each loads the API, a database server or a second product anew).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The files of `dir` whose names end in `suffix`, in name order, as `<prefix><name>`.
 * @param {string} dir @param {string} suffix @param {string} prefix
 */
export function testFiles(dir, suffix, prefix) {
  return readdirSync(dir)
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => `${prefix}${name}`);
}

/**
 * `files` (paths relative to `dir`) cut into `parts` parts about equal in weight, each in name order.
 * @param {string} dir @param {string[]} files @param {number} parts @param {RegExp} startsProcesses
 * @returns {string[][]}
 */
export function splitIntoParts(dir, files, parts, startsProcesses) {
  const weighed = files.map((file) => {
    const source = readFileSync(path.join(dir, file), 'utf8');
    return { file, weight: source.length * (startsProcesses.test(source) ? 3 : 1) };
  });
  const loads = Array.from({ length: parts }, () => ({ weight: 0, files: /** @type {string[]} */ ([]) }));
  for (const { file, weight } of weighed.sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file))) {
    const lightest = loads.reduce((least, load) => (load.weight < least.weight ? load : least));
    lightest.weight += weight;
    lightest.files.push(file);
  }
  return loads.map((load) => load.files.sort());
}
