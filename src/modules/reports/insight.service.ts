import type { Page } from '../../shared/page.js';
import { NotFoundError } from '../../shared/errors.js';
import { addDays } from '../../shared/time.js';
import { reportWindow } from './aggregation.js';
import { createFailureGrouper, type FailureGroup } from './failure-signature.js';
import { NO_QUARANTINES, type QuarantineEffects } from '../quarantine/report-effects.js';
import type { DetailWithApp } from './report-rows.js';
import type { ReportsRepository } from './reports.repository.js';
import type { ReportChanges } from './insight.schema.js';
import { hasReadyVersion } from './summary-view.js';
import { type SpecsRepository, type SpecStatus, toSpecStat } from './specs.repository.js';

/** A spec's tests in a report's window. */
export interface SpecTestCounts {
  total: number;
  failing: number;
  flaky: number;
  skipped: number;
}

export interface InsightServiceDeps {
  reportsRepository: ReportsRepository;
  specsRepository: SpecsRepository;
  quarantine?: QuarantineEffects;
  /** The tests of some specs of an app in the window of a report's date; null for an app without uploads there. */
  testCounts?: (
    appId: number,
    date: string,
    specs: readonly string[],
  ) => Promise<Map<string, SpecTestCounts> | null>;
}

/** Failed tests read per query: a window may hold any number of them. */
const FAILURES_PAGE_SIZE = 2000;

const specKey = (appId: number, spec: string) => `${appId}\u0000${spec}`;

/** Per-spec statistics of a report and what changed between two consecutive days. */
export function createInsightService({
  reportsRepository: reports,
  specsRepository: specs,
  quarantine = NO_QUARANTINES,
  testCounts,
}: InsightServiceDeps) {
  /** The date's summary when it holds a ready version: its own, or the last one kept while it regenerates or after it failed. */
  async function readySummary(date: string) {
    const summary = await reports.findSummaryByDate(date);
    return summary && hasReadyVersion(summary) ? summary : undefined;
  }

  function appChanges(current: DetailWithApp[], previous: DetailWithApp[]) {
    const before = new Map(previous.map((detail) => [detail.app_id, detail.last_run_status]));
    const change = (detail: DetailWithApp) => ({
      appId: detail.app_id,
      appName: detail.app_name,
      runId: detail.last_run_number,
    });
    // The same rule as the e2e_failure / e2e_success notifications.
    return {
      newlyFailing: current
        .filter((detail) => detail.last_run_status === 'failed' && before.get(detail.app_id) !== 'failed')
        .map(change),
      recovered: current
        .filter((detail) => detail.last_run_status === 'passed' && before.get(detail.app_id) === 'failed')
        .map(change),
    };
  }

  function specChanges(current: SpecStatus[], previous: SpecStatus[], appNames: Map<number, string>) {
    const before = new Map(previous.map((spec) => [specKey(spec.appId, spec.spec), spec.lastStatus]));
    const newFailingSpecs: Omit<ReportChanges['newFailingSpecs'][number], 'quarantined'>[] = [];
    const fixedSpecs: ReportChanges['fixedSpecs'] = [];
    for (const spec of current) {
      const was = before.get(specKey(spec.appId, spec.spec));
      const appName = appNames.get(spec.appId) ?? `App ${spec.appId}`;
      if (spec.lastStatus === 'failed' && was !== 'failed') {
        newFailingSpecs.push({
          appId: spec.appId,
          appName,
          spec: spec.spec,
          failingSince: spec.failingSince,
        });
      } else if (spec.lastStatus === 'passed' && was === 'failed') {
        fixedSpecs.push({ appId: spec.appId, appName, spec: spec.spec });
      }
    }
    const byApp = (a: { appName: string; appId: number }, b: { appName: string; appId: number }) =>
      a.appName === b.appName ? a.appId - b.appId : a.appName < b.appName ? -1 : 1;
    // Stable sorts: within an app, specs keep their stored order (failing specs first).
    return { newFailingSpecs: newFailingSpecs.sort(byApp), fixedSpecs: fixedSpecs.sort(byApp) };
  }

  /** The report and app both exist, or the same 404 as the specs endpoint. */
  async function knownSummary(summaryId: number, appId: number) {
    const [summary, appExists] = await Promise.all([
      reports.findSummaryById(summaryId),
      reports.appExists(appId),
    ]);
    if (!summary) throw new NotFoundError(`Report ${summaryId} not found`);
    if (!appExists) throw new NotFoundError(`Application ${appId} not found`);
    return summary;
  }

  return {
    async specs(summaryId: number, appId: number, page: Page) {
      const summary = await knownSummary(summaryId, appId);
      const { rows, total } = await specs.page(summaryId, appId, page.limit, page.offset);
      const items = await quarantine.annotateSpecs(appId, rows.map(toSpecStat));
      const counts = testCounts
        ? await testCounts(
            appId,
            summary.date,
            items.map((item) => item.spec),
          )
        : null;
      const none = { total: 0, failing: 0, flaky: 0, skipped: 0 };
      return {
        items: items.map((item) => ({ ...item, tests: counts ? (counts.get(item.spec) ?? none) : null })),
        total,
      };
    },

    /** The failed tests of the app's runs uploaded in the report's window, grouped by cause. */
    async failureGroups(summaryId: number, appId: number): Promise<FailureGroup[]> {
      const summary = await knownSummary(summaryId, appId);
      const { startDate, endDate } = reportWindow(summary.date);
      const fromIso = `${startDate}T00:00:00.000Z`;
      const toIso = `${addDays(endDate, 1)}T00:00:00.000Z`;
      const grouper = createFailureGrouper();
      for (let afterId = 0; ;) {
        const page = await specs.failuresPage(appId, fromIso, toIso, afterId, FAILURES_PAGE_SIZE);
        for (const failure of page) {
          grouper.add({
            spec: failure.spec,
            test: failure.test,
            message: failure.message,
            at: failure.created_at,
          });
        }
        if (page.length < FAILURES_PAGE_SIZE) break;
        afterId = page[page.length - 1]!.id;
      }
      return grouper.finish();
    },

    /** The (last) ready report of `date` against the (last) ready report of the day before. */
    async changes(date: string): Promise<ReportChanges> {
      const summary = await readySummary(date);
      if (!summary) throw new NotFoundError(`No ready report for ${date}`);
      const previousDate = addDays(date, -1);
      const previous = await readySummary(previousDate);
      if (!previous) {
        return {
          date,
          previousDate: null,
          newlyFailing: [],
          recovered: [],
          newFailingSpecs: [],
          fixedSpecs: [],
        };
      }
      const [currentDetails, previousDetails, currentSpecs, previousSpecs] = await Promise.all([
        reports.listDetails(summary.id),
        reports.listDetails(previous.id),
        specs.statusesOfSummary(summary.id),
        specs.statusesOfSummary(previous.id),
      ]);
      const appNames = new Map(currentDetails.map((detail) => [detail.app_id, detail.app_name]));
      const { newFailingSpecs, fixedSpecs } = specChanges(currentSpecs, previousSpecs, appNames);
      return {
        date,
        previousDate,
        ...appChanges(currentDetails, previousDetails),
        newFailingSpecs: await quarantine.flagNewFailingSpecs(newFailingSpecs),
        fixedSpecs,
      };
    },
  };
}

export type InsightService = ReturnType<typeof createInsightService>;
