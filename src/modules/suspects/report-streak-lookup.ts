import type { SuspectsRepository } from './suspects.repository.js';
import type { StreakLookup } from './suspects.service.js';

/** The streak bounds of a spec as the date's ready report stores them. */
export function createReportStreakLookup(repository: Pick<SuspectsRepository, 'specInReport'>): StreakLookup {
  return async (appId, date, spec) => {
    const found = await repository.specInReport(appId, date, spec);
    if (found === 'no_report') return { status: 'no_report' };
    if (found === undefined || found.lastStatus !== 'failed') return { status: 'not_failing' };
    if (found.lastPassedCommitSha === null || found.firstFailedCommitSha === null) {
      return { status: 'no_passing_commit' };
    }
    return { base: found.lastPassedCommitSha, head: found.firstFailedCommitSha };
  };
}
