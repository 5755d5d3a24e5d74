import type { GitHubClient } from '../../integrations/github/github-client.js';
import type { ModuleDeps } from '../module-deps.js';
import type { AppsRepository } from '../apps/apps.repository.js';
import { createPullRequestsRepository } from '../pull-requests/pull-requests.repository.js';
import { createReportStreakLookup } from './report-streak-lookup.js';
import { createSuspectsRepository } from './suspects.repository.js';
import { createSuspectsService, type StreakLookup } from './suspects.service.js';

/**
 * Suspects of failing specs over the process's GitHub client. `lookup` gives a spec's streak
 * bounds; by default they are read from the stored report.
 */
export function createSuspectsModule(
  { db, log }: ModuleDeps,
  links: { github: GitHubClient; appsRepository: AppsRepository; lookup?: StreakLookup },
) {
  const repository = createSuspectsRepository(db);
  const pullRequests = createPullRequestsRepository(db);
  const service = createSuspectsService({
    findApp: (id) => links.appsRepository.findById(id),
    lookup: links.lookup ?? createReportStreakLookup(repository),
    github: links.github,
    ranges: repository,
    trackedIds: (owner, repo, numbers) => pullRequests.trackedIds(owner, repo, numbers),
    log,
  });
  return { service };
}
