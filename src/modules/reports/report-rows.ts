import type { Selectable } from 'kysely';
import type { E2eManualRunsTable, E2eReportDetailsTable, E2eReportSummariesTable } from '../../db/schema.js';

/** The rows the report repositories read, as Kysely selects them. */
export type SummaryRow = Selectable<E2eReportSummariesTable>;
export type DetailRow = Selectable<E2eReportDetailsTable>;
export type ManualRunRow = Selectable<E2eManualRunsTable>;
export type SummaryStatus = 'pending' | 'ready' | 'failed';

export interface SummaryFilter {
  status?: SummaryStatus;
  from?: string;
  to?: string;
}

export interface DetailWithApp extends DetailRow {
  app_name: string;
}
