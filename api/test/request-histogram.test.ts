// The request-duration histogram reads, in a scrape, as prom-client's own Histogram would with the same observations:
// the same bucket, sum and count lines, labelled the same (dashboards and alerts keep working).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { requestHistogram } from '../src/lib/request-histogram.js';

const name = 'portal_http_request_duration_seconds';
const help = 'Time to answer an HTTP request, by route pattern, method and status class';
const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

describe('request histogram', () => {
  it('scrapes as prom-client’s Histogram: buckets (bounds included), +Inf, sum and count per series', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const reference = new Histogram({
      name,
      help,
      buckets,
      labelNames: ['route', 'method', 'status_class'],
      registers: [theirs],
    });
    const histogram = requestHistogram(ours, { name, help, buckets });
    const routes = ['/auth/user', '/admin/users/:id/sessions', 'unmatched', '/con "comillas" y \\ barra'];
    const statuses = [101, 200, 204, 302, 404, 503];
    const seconds = [0, 0.005, 0.0051, 0.3, 1, 10, 10.5, 42];
    for (let i = 0; i < 600; i++) {
      const [route, method, status, value] = [
        routes[i % routes.length] as string,
        ['GET', 'POST', 'other'][i % 3] as string,
        statuses[i % statuses.length] as number,
        (seconds[i % seconds.length] as number) + (i % 2 === 0 ? i * 1e-6 : 0),
      ];
      reference.observe({ route, method, status_class: `${Math.floor(status / 100)}xx` }, value);
      histogram.observe(route, method, status, value);
    }
    const lines = async (registry: Registry) => (await registry.metrics()).split('\n').sort();
    assert.deepEqual(await lines(ours), await lines(theirs));
    theirs.resetMetrics();
    ours.resetMetrics();
    assert.deepEqual(await lines(ours), await lines(theirs));
  });
});
