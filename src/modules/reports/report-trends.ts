import { successRate } from '../../shared/rates.js';
import { addDays, todayUtc } from '../../shared/time.js';
import type { TrendPoint } from './insight.schema.js';
import type { ReportsRepository } from './reports.repository.js';

/** Daily success rate over the last `days` days (today included), overall and per app. */
export async function reportTrends(repository: ReportsRepository, days: number) {
  const to = todayUtc();
  const from = addDays(to, -(days - 1));
  const { summaries, details } = await repository.readyBetween(from, to);
  const dateOf = new Map(summaries.map((summary) => [summary.id, summary.date]));
  const overall: TrendPoint[] = summaries.map((summary) => ({
    date: summary.date,
    totalRuns: summary.total_runs,
    passedRuns: summary.passed_runs,
    failedRuns: summary.failed_runs,
    successRate: Number(summary.success_rate),
  }));
  const apps = new Map<number, { appId: number; appName: string; points: TrendPoint[] }>();
  for (const detail of details) {
    const entry = apps.get(detail.app_id) ?? {
      appId: detail.app_id,
      appName: detail.app_name,
      points: [],
    };
    apps.set(detail.app_id, entry);
    entry.points.push({
      date: dateOf.get(detail.report_summary_id)!,
      totalRuns: detail.total_runs,
      passedRuns: detail.passed_runs,
      failedRuns: detail.failed_runs,
      successRate: successRate(detail.passed_runs, detail.total_runs),
    });
  }
  for (const entry of apps.values()) entry.points.sort((a, b) => a.date.localeCompare(b.date));
  return { days, from, to, overall, apps: [...apps.values()] };
}
