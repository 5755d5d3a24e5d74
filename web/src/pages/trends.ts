import type { TrendPoint, Trends } from '../../../src/client/index.js';

/** `GET /api/e2e_reports/trends?days=N` answer: ready reports of the period, overall and per app. */
export type TrendsAnswer = Trends;

export interface TrendData {
  dates: string[];
  overall: (number | null)[];
  apps: { name: string; values: (number | null)[] }[];
}

function daysBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}

/** The points that carry a rate: a report of no runs has 0% as a figure, which is no success rate. */
export const withRuns = (points: readonly TrendPoint[]) => points.filter((point) => point.totalRuns > 0);

/**
 * One value per day of the period; days without a ready report, or whose report had no runs, stay
 * empty (gaps in the lines).
 */
export function toChartData(answer: TrendsAnswer): TrendData {
  const hasData = withRuns(answer.overall).length > 0;
  const dates = hasData ? daysBetween(answer.from, answer.to) : [];
  const valuesOf = (points: TrendPoint[]) => {
    const byDate = new Map(withRuns(points).map((point) => [point.date, point.successRate]));
    return dates.map((date) => byDate.get(date) ?? null);
  };
  return {
    dates,
    overall: valuesOf(answer.overall),
    apps: [...answer.apps]
      .sort((a, b) => a.appName.localeCompare(b.appName))
      .map((app) => ({ name: app.appName, values: valuesOf(app.points) })),
  };
}

/*
 * Ten hues that stay apart from each other (and from the overall line), readable on the light and
 * the dark background; from the eleventh line on, a dash pattern tells lines of one hue apart.
 */
const HUES = [
  '#3b82f6',
  '#f97316',
  '#16a34a',
  '#e11d48',
  '#9333ea',
  '#a16207',
  '#db2777',
  '#0891b2',
  '#65a30d',
  '#64748b',
];
const DASHES: (number[] | undefined)[] = [undefined, [6, 3], [2, 3], [8, 3, 2, 3]];

/** The stroke of the `index`-th application line. */
export function lineStyle(index: number): { stroke: string; dash: number[] | undefined } {
  return {
    stroke: HUES[index % HUES.length]!,
    dash: DASHES[Math.floor(index / HUES.length) % DASHES.length],
  };
}
