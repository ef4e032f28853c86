// Writes each spec file's seconds (its first test's start to its last test's end: one worker runs the files one after
// another) and counts, and the start of the product, for the summary of scripts/test.mjs
// (scripts/lib/test-report.mjs). The list reporter still prints every test.
import path from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { ROOT } from './env';

export default class TimingsReporter implements Reporter {
  /** The reporter is made before the web servers start; the run begins once they answer. */
  private readonly created = Date.now();
  private begun = 0;
  private readonly spans = new Map<string, { start: number; end: number }>();
  private readonly counts: Record<string, { passed: number; failed: number; skipped: number }> = {};
  private readonly failures: string[] = [];

  onBegin(): void {
    this.begun = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = path.relative(ROOT, test.location.file);
    const start = result.startTime.getTime();
    const end = start + result.duration;
    const span = this.spans.get(file);
    this.spans.set(file, span ? { start: Math.min(span.start, start), end: Math.max(span.end, end) } : { start, end });
    this.counts[file] ??= { passed: 0, failed: 0, skipped: 0 };
    const counts = this.counts[file];
    if (result.status === 'skipped') counts.skipped += 1;
    else if (test.outcome() === 'expected' || test.outcome() === 'flaky') counts.passed += 1;
    else {
      counts.failed += 1;
      this.failures.push([file, ...test.titlePath().slice(3)].join(' › '));
    }
  }

  async onEnd(_result: FullResult): Promise<void> {
    const { recordStep } = await import('../../scripts/lib/test-report.mjs');
    const files = [...this.spans].map(([file, { start, end }]) => ({ file, seconds: (end - start) / 1000 }));
    if (this.begun)
      files.push({
        file: 'e2e/playwright.config.ts (arranque del producto y los proveedores)',
        seconds: (this.begun - this.created) / 1000,
      });
    recordStep(process.env.TEST_STEP ?? 'navegador', {
      files,
      counts: { todas: this.counts },
      failures: this.failures,
    });
  }

  printsToStdio(): boolean {
    return false;
  }
}
