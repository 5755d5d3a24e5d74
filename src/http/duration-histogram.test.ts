import { Histogram, type Metric, Registry, type RegistryContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DurationHistogram } from './duration-histogram.js';
import { createMetrics } from './metrics.js';

const NAME = 'test_http_request_duration_seconds';
const HELP = 'HTTP request durations by method, route pattern and status';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Observation = [method: string, route: string, status: number, seconds: number];

/** The same observations in prom-client's histogram and ours, each in its own registry. */
function bothWith(
  observations: Observation[],
  buckets = BUCKETS,
  contentType: RegistryContentType = Registry.PROMETHEUS_CONTENT_TYPE,
) {
  const reference = new Registry<RegistryContentType>();
  reference.setContentType(contentType);
  const theirs = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['method', 'route', 'status'],
    buckets,
    registers: [reference],
  });
  const ours = new Registry<RegistryContentType>();
  ours.setContentType(contentType);
  const histogram = new DurationHistogram(NAME, HELP, buckets);
  ours.registerMetric(histogram as unknown as Metric);
  for (const [method, route, status, seconds] of observations) {
    theirs.observe({ method, route, status: String(status) }, seconds);
    histogram.observe(method, route, status, seconds);
  }
  return { reference, ours, histogram, theirs };
}

// Values on and between the bounds, below the first and above the last, in interleaved series.
const OBSERVATIONS: Observation[] = [
  ['GET', '/health', 200, 0.0001],
  ['GET', '/api/apps', 200, 0.005],
  ['GET', '/health', 200, 0.0051],
  ['POST', '/api/to_do_list', 201, 0.3],
  ['GET', '/health', 503, 12],
  ['GET', '/api/apps', 304, 0.01],
  ['GET', '/health', 200, 10],
  ['POST', '/api/to_do_list', 400, 0],
  ['GET', 'unmatched', 404, 0.7],
  ['POST', '/api/to_do_list', 201, 2.4999],
  ['GET', '/api/apps', 200, 1e-9],
];

describe('HTTP duration histogram', () => {
  it('scrapes byte for byte as prom-client’s histogram given the same observations', async () => {
    const { reference, ours } = bothWith(OBSERVATIONS);
    const expected = await reference.metrics();
    expect(expected).toContain(`${NAME}_bucket{le="0.005",method="GET",route="/health",status="200"} 1`);
    expect(await ours.metrics()).toBe(expected);
  });

  it('gives the same JSON form, OpenMetrics text and aggregator', async () => {
    const { reference, ours } = bothWith(OBSERVATIONS);
    expect(await ours.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
    const open = bothWith(OBSERVATIONS, BUCKETS, Registry.OPENMETRICS_CONTENT_TYPE);
    expect(await open.ours.metrics()).toBe(await open.reference.metrics());
  });

  it('takes other ascending bounds, and refuses bounds out of order', async () => {
    const { reference, ours } = bothWith(OBSERVATIONS, [0.01, 0.1, 1]);
    expect(await ours.metrics()).toBe(await reference.metrics());
    expect(() => new DurationHistogram(NAME, HELP, [1, 0.1])).toThrow(/ascending/);
    expect(() => new DurationHistogram(NAME, HELP, [0.1, 0.1])).toThrow(/ascending/);
  });

  it('prints only HELP and TYPE before any observation and after a reset', async () => {
    const { reference, ours, histogram } = bothWith([]);
    expect(await ours.metrics()).toBe(await reference.metrics());
    histogram.observe('GET', '/health', 200, 0.001);
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it('ignores a duration that is not a finite number instead of throwing', async () => {
    const { reference, ours, histogram } = bothWith(OBSERVATIONS);
    expect(() => histogram.observe('GET', '/health', 200, Number.NaN)).not.toThrow();
    histogram.observe('GET', '/health', 200, Number.POSITIVE_INFINITY);
    expect(await ours.metrics()).toBe(await reference.metrics());
  });
});

describe('process metrics', () => {
  it('count front-door answers and HTTP durations in the scraped text', async () => {
    const metrics = createMetrics();
    const before = await metrics.registry.metrics();
    expect(before).toContain('dashboard_http_front_door_answers_total 0\n');
    metrics.answeredAtFrontDoor();
    metrics.answeredAtFrontDoor();
    metrics.observeHttp('GET', '/health', 200, 0.002);
    const text = await metrics.registry.metrics();
    expect(text).toContain('dashboard_http_front_door_answers_total 2\n');
    expect(text).toContain('# TYPE dashboard_http_request_duration_seconds histogram');
    expect(text).toContain(
      'dashboard_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/health",status="200"} 1',
    );
    expect(text).toContain(
      'dashboard_http_request_duration_seconds_count{method="GET",route="/health",status="200"} 1',
    );
    // A second scrape does not count the answers twice.
    expect(await metrics.registry.metrics()).toContain('dashboard_http_front_door_answers_total 2\n');
  });
});
