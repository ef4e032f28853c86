// The request-duration histogram of the metrics (plugins/app/metrics.ts), observed on every answer. prom-client's
// Histogram builds, checks and hashes a label object on each observation, a visible share of a cheap request; this one
// finds its series by route, method and status class without building anything, and hands prom-client's registry the
// values its Histogram would (cumulative buckets, sum, count), so a scrape reads the same.
import type { Registry } from 'prom-client';

interface Series {
  labels: Readonly<Record<string, string>>;
  /** Observations per bucket (not cumulative), the last one past every bound. */
  counts: number[];
  sum: number;
  count: number;
}

export interface RequestHistogram {
  observe(route: string, method: string, statusCode: number, seconds: number): void;
}

const statusClasses = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

export function requestHistogram(
  registry: Registry,
  options: { name: string; help: string; buckets: readonly number[] },
): RequestHistogram {
  const { name, help, buckets } = options;
  // route → method → series by status class (index: the status code's first digit).
  const byRoute = new Map<string, Map<string, Series[]>>();

  /** As prom-client's Histogram gives them to the registry: buckets labelled `le` before the series' own labels. */
  const values = () => {
    const all: { labels: object; sharedLabels: object; value: number; metricName: string; exemplar?: null }[] = [];
    for (const methods of byRoute.values()) {
      for (const classes of methods.values()) {
        for (const series of classes) {
          if (!series) continue;
          const { labels, counts, sum, count } = series;
          let cumulative = 0;
          buckets.forEach((le, i) => {
            cumulative += counts[i] ?? 0;
            all.push({
              labels: { le },
              sharedLabels: labels,
              value: cumulative,
              metricName: `${name}_bucket`,
              exemplar: null,
            });
          });
          all.push({
            labels: { le: '+Inf' },
            sharedLabels: labels,
            value: count,
            metricName: `${name}_bucket`,
            exemplar: null,
          });
          all.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${name}_sum` });
          all.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${name}_count` });
        }
      }
    }
    return all;
  };
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    reset: () => byRoute.clear(),
    getForPromString: async () => ({ name, help, type: 'histogram', values: values(), aggregator: 'sum' }),
    get: async () => ({
      name,
      help,
      type: 'histogram',
      values: values().map(({ labels, sharedLabels, ...value }) => ({
        ...value,
        labels: { ...labels, ...sharedLabels },
      })),
      aggregator: 'sum',
    }),
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);

  return {
    observe(route, method, statusCode, seconds) {
      let methods = byRoute.get(route);
      if (!methods) {
        methods = new Map();
        byRoute.set(route, methods);
      }
      let classes = methods.get(method);
      if (!classes) {
        classes = [];
        methods.set(method, classes);
      }
      const index = Math.min(5, Math.max(0, Math.floor(statusCode / 100)));
      let series = classes[index];
      if (!series) {
        const labels = Object.freeze({ route, method, status_class: statusClasses[index] as string });
        series = { labels, counts: new Array(buckets.length + 1).fill(0), sum: 0, count: 0 };
        classes[index] = series;
      }
      let bucket = 0;
      while (bucket < buckets.length && seconds > (buckets[bucket] as number)) bucket += 1;
      series.counts[bucket] = (series.counts[bucket] ?? 0) + 1;
      series.sum += seconds;
      series.count += 1;
    },
  };
}
