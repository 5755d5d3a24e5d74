/**
 * The trends endpoint (`GET /api/e2e_reports/trends?days=N`) is described only as "daily success rate
 * overall and per app"; this reads the plausible layouts into one shape for the chart.
 */
export interface TrendData {
  dates: string[];
  overall: (number | null)[];
  apps: { name: string; values: (number | null)[] }[];
}

type Row = Record<string, unknown>;

const asRows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((v): v is Row => typeof v === 'object' && v !== null) : [];

function rateOf(row: Row): number | null {
  const rate = row.successRate ?? row.rate;
  if (typeof rate === 'number') return rate;
  if (typeof row.totalRuns === 'number' && typeof row.passedRuns === 'number') {
    return row.totalRuns > 0 ? row.passedRuns / row.totalRuns : null;
  }
  return null;
}

const dateOf = (row: Row): string | undefined =>
  typeof row.date === 'string' ? row.date.slice(0, 10) : undefined;

function nameOf(row: Row): string {
  const app = (typeof row.app === 'object' && row.app !== null ? row.app : {}) as Row;
  for (const candidate of [row.appName, row.name, app.name, row.code, row.appId]) {
    if (typeof candidate === 'string' || typeof candidate === 'number') return String(candidate);
  }
  return 'Application';
}

export function normalizeTrends(raw: unknown): TrendData {
  const root = (typeof raw === 'object' && raw !== null ? raw : {}) as Row;
  const overallRows = asRows(
    root.overall ?? root.days ?? root.points ?? root.daily ?? (Array.isArray(raw) ? raw : []),
  );
  const appRows = asRows(root.apps ?? root.perApp ?? root.applications ?? root.byApp);

  const dates = new Set<string>();
  const overall = new Map<string, number | null>();
  for (const row of overallRows) {
    const date = dateOf(row);
    if (!date) continue;
    dates.add(date);
    overall.set(date, rateOf(row));
  }

  const apps = new Map<string, Map<string, number | null>>();
  const addPoint = (name: string, date: string, rate: number | null) => {
    dates.add(date);
    if (!apps.has(name)) apps.set(name, new Map());
    apps.get(name)!.set(date, rate);
  };
  for (const app of appRows) {
    const points = asRows(app.points ?? app.days ?? app.series ?? app.data ?? app.trend);
    for (const point of points) {
      const date = dateOf(point);
      if (date) addPoint(nameOf(app), date, rateOf(point));
    }
  }
  // Day-first layout: each day row lists its apps.
  for (const row of overallRows) {
    const date = dateOf(row);
    if (!date) continue;
    for (const app of asRows(row.apps ?? row.details)) addPoint(nameOf(app), date, rateOf(app));
  }

  const sorted = [...dates].sort();
  return {
    dates: sorted,
    overall: sorted.map((d) => overall.get(d) ?? null),
    apps: [...apps.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, values]) => ({ name, values: sorted.map((d) => values.get(d) ?? null) })),
  };
}
