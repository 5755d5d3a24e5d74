import type { SpecStat } from '../../../../src/client/index.js';

/** The deep link of an app's report page; the date travels in the URL so it can be shared. */
export function appReportPath(appId: number, date: string): string {
  return `/apps/${appId}/report?date=${encodeURIComponent(date)}`;
}

/** `/apps/12/report` → 12; anything else → undefined. */
export function appIdFromPath(path: string): number | undefined {
  const match = /^\/apps\/(\d+)\/report\/?$/.exec(path);
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** A `YYYY-MM-DD` from the query string, when it is one. */
export function dateFromSearch(search: string): string | undefined {
  const date = new URLSearchParams(search).get('date') ?? '';
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined;
}

/** The page's three lists, from the specs in the API's order (failing first). */
export function specLists(specs: readonly SpecStat[], slowest = 10) {
  return {
    failing: specs.filter((spec) => spec.lastStatus === 'failed'),
    flaky: specs
      .filter((spec) => spec.flakyRuns > 0)
      .sort((a, b) => b.flakyRuns - a.flakyRuns || a.spec.localeCompare(b.spec)),
    slowest: specs
      .filter((spec) => spec.avgDurationMs !== null)
      .sort((a, b) => (b.avgDurationMs ?? 0) - (a.avgDurationMs ?? 0) || a.spec.localeCompare(b.spec))
      .slice(0, slowest),
  };
}

/** The author of the most recent failure among the specs, if the rows named one. */
export function lastFailureAuthor(specs: readonly SpecStat[]): { author: string; at: string } | undefined {
  let latest: { author: string; at: string } | undefined;
  for (const spec of specs) {
    if (!spec.lastFailedAt || !spec.lastFailureAuthor) continue;
    if (!latest || spec.lastFailedAt > latest.at)
      latest = { author: spec.lastFailureAuthor, at: spec.lastFailedAt };
  }
  return latest;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}
