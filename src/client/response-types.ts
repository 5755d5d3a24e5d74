import type { Static } from '@sinclair/typebox';
import type { ApplicationDetails } from '../modules/apps/apps.schema.js';
import type { PullRequestDetailsResponse } from '../modules/pull-requests/pull-requests.schema.js';
import type {
  ReportDetail as ReportDetailSchema,
  RunReportResponse,
} from '../modules/reports/reports.schema.js';
import type { TrendsResponse } from '../modules/reports/insight.schema.js';

// Names for answers whose shape has no schema of its own, so callers need not spell out Static<…>.

/**
 * A report detail. The schema refers to the application by name (`$ref`), which TypeBox cannot
 * follow at the type level, so the application's type is put back here from its own schema.
 */
export type ReportDetail = Omit<ReportDetailSchema, 'app'> & {
  app?: ApplicationDetails & NonNullable<ReportDetailSchema['app']>;
};

/** A tracked pull request with GitHub's live details (`scmDetails`). */
export type PullRequestDetails = Static<typeof PullRequestDetailsResponse>['data'];

type RunReportBody = Static<typeof RunReportResponse>;

/**
 * The body of `GET /api/e2e_run_report`: ready/failed report, or a pending summary (202); with the
 * last ready version of the date while the summary is pending or failed.
 */
export type ReportRun = Omit<RunReportBody, 'details' | 'lastReady'> & {
  details?: ReportDetail[];
  lastReady?: { summary: RunReportBody['summary']; details?: ReportDetail[] };
};

/** The `data` of `GET /api/e2e_reports/trends`. */
export type Trends = Static<typeof TrendsResponse>['data'];
