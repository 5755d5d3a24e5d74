/**
 * The HTTP request duration histogram, kept by hand instead of by prom-client's `Histogram`.
 *
 * Every request observes one duration. prom-client's `observe` takes the labels as an object,
 * checks every label name, sorts and joins the names and values into a hash string, and looks the
 * bucket up by the bound turned into a property key: about 3 % of the instructions of a
 * `GET /health` answered at the front door. Here the series is found through three maps
 * (route, method, status), whose keys are the same strings and numbers on every request, and the
 * bucket by walking the bounds: no allocation once a series exists.
 *
 * A scrape sees exactly what prom-client's histogram would print: `get()` and `getForPromString()`
 * return its export structure (buckets cumulative, then `+Inf`, `_sum` and `_count`, series in
 * the order they were first seen), and the registry formats them. A test feeds the same
 * observations to both and compares the scraped text byte for byte.
 */

interface Series {
  readonly labels: { method: string; route: string; status: string };
  /** Observations per bucket, not cumulative; a value above the last bound is only counted. */
  readonly counts: number[];
  sum: number;
  count: number;
}

interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
  /** prom-client's shape: null on bucket lines, undefined on `_sum` and `_count`. */
  exemplar: null | undefined;
}

export class DurationHistogram {
  readonly type = 'histogram';
  /** How prom-client's cluster aggregation combines workers' histograms. */
  readonly aggregator = 'sum';
  private readonly upperBounds: readonly number[];
  private byRoute = new Map<string, Map<string, Map<number, Series>>>();
  /** Series in the order they were first observed (prom-client prints them so). */
  private seen: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    buckets: readonly number[],
  ) {
    // The bucket walk relies on ascending bounds (prom-client would print unsorted ones unsorted).
    if (buckets.some((bound, index) => index > 0 && bound <= buckets[index - 1]!)) {
      throw new Error(`${name}: bucket bounds must be strictly ascending`);
    }
    this.upperBounds = [...buckets];
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    // prom-client throws on such a value; a duration metric must never fail a request.
    if (!Number.isFinite(seconds)) return;
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map<string, Map<number, Series>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, Series>()));
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        counts: this.upperBounds.map(() => 0),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
      this.seen.push(series);
    }
    const bounds = this.upperBounds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > bounds[bucket]!) bucket++;
    if (bucket < bounds.length) series.counts[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  reset(): void {
    this.byRoute = new Map();
    this.seen = [];
  }

  /** The structure the registry formats as Prometheus text (labels and shared labels apart). */
  getForPromString() {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.seen) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, index) => {
        cumulative += series.counts[index]!;
        values.push(exported({ le: bound }, cumulative, bucketName, series, null));
      });
      values.push(
        exported({ le: '+Inf' }, series.count, bucketName, series, null),
        exported({}, series.sum, `${this.name}_sum`, series, undefined),
        exported({}, series.count, `${this.name}_count`, series, undefined),
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (`registry.getMetricsAsJSON()`): each value's labels merged into one object. */
  get() {
    const data = this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ sharedLabels, labels, ...rest }) => ({
        ...rest,
        labels: { ...labels, ...sharedLabels },
      })),
    };
  }
}

function exported(
  labels: ExportedValue['labels'],
  value: number,
  metricName: string,
  series: Series,
  exemplar: null | undefined,
): ExportedValue {
  return { labels, sharedLabels: series.labels, value, metricName, exemplar };
}
