// Writes each test file's seconds and its counts for the summary of scripts/test.mjs (scripts/lib/test-report.mjs);
// jest's own reporter still prints everything else.
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

class TimingsReporter {
  /** @param {unknown} _contexts @param {import('@jest/reporters').AggregatedResult} results */
  async onRunComplete(_contexts, results) {
    const { recordStep } = await import('../lib/test-report.mjs');
    recordStep(process.env.TEST_STEP ?? 'jest', {
      files: results.testResults.map((result) => ({
        file: path.relative(ROOT, result.testFilePath),
        seconds: (result.perfStats.end - result.perfStats.start) / 1000,
      })),
      failures: results.testResults.flatMap((result) => {
        const file = path.relative(ROOT, result.testFilePath);
        if (result.testExecError) return [`${file} (el archivo)`];
        return result.testResults
          .filter((test) => test.status === 'failed')
          .map((test) => [file, ...test.ancestorTitles, test.title].join(' › '));
      }),
      counts: {
        todas: Object.fromEntries(
          results.testResults.map((result) => [
            path.relative(ROOT, result.testFilePath),
            {
              passed: result.numPassingTests,
              // A file that did not load counts as one failed test: jest counts none for it.
              failed: result.numFailingTests + (result.testExecError ? 1 : 0),
              skipped: result.numPendingTests + result.numTodoTests,
            },
          ]),
        ),
      },
    });
  }
}

module.exports = TimingsReporter;
