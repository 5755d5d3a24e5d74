import { addDays } from '../../shared/time.js';
import { zonedDay } from '../../shared/zoned-day.js';
import type { AppSourcesRepository } from './app-sources.repository.js';
import type { AppRunsToday, RunsToday } from './apps.schema.js';

/** Days of the report window, as the report worker reads them (the report date and the 13 before). */
const REPORT_WINDOW_DAYS = 14;

export interface RunsTodayDeps {
  sources: AppSourcesRepository;
  /** CRON_TZ: "today" of the counts and of the report job. */
  timezone: string;
  /** Whether the Cypress Cloud export can be read (CYPRESS_API_KEY is set). */
  cypressConfigured: boolean;
  now?: () => Date;
}

/**
 * "Runs today" per application, counted from where its results come from. The report takes an
 * app's runs from its uploads when it uploaded in the report window, so the same rule picks the
 * source here: an upload-fed app counts its distinct uploaded runs that started today; any other
 * app counts the runs of the report day in today's ready report (the Cypress export), unknown
 * (null) while that report is not ready. Manual runs, started from the dashboard, are counted apart.
 */
export function createRunsTodayService(deps: RunsTodayDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    async get(): Promise<RunsToday> {
      const day = zonedDay(deps.timezone, now());
      const windowStart = `${addDays(day.date, -(REPORT_WINDOW_DAYS - 1))}T00:00:00.000Z`;
      const appIds = await deps.sources.appIds();
      const [uploaded, manual, latest, reportRuns] = await Promise.all([
        deps.sources.uploadedRunsBetween(day.startIso, day.endIso),
        deps.sources.manualRunsBetween(appIds, day.startIso, day.endIso),
        deps.sources.latestUploads(),
        deps.sources.reportDayRuns(day.date),
      ]);
      const lastRunAt = new Map(latest.map((upload) => [upload.appId, upload.createdAt]));
      const apps = appIds.map((appId): AppRunsToday => {
        const manualRuns = manual.get(appId) ?? 0;
        const uploadedToday = uploaded.get(appId) ?? 0;
        const fedByUploads = uploadedToday > 0 || (lastRunAt.get(appId) ?? '') >= windowStart;
        if (fedByUploads) return { appId, source: 'uploads', ciRuns: uploadedToday, manualRuns };
        if (!deps.cypressConfigured) return { appId, source: null, ciRuns: null, manualRuns };
        return {
          appId,
          source: 'cypress',
          ciRuns: reportRuns ? (reportRuns.get(appId) ?? 0) : null,
          manualRuns,
        };
      });
      return { date: day.date, timezone: deps.timezone, apps };
    },
  };
}

export type RunsTodayService = ReturnType<typeof createRunsTodayService>;
