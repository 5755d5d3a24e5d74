import { createGitHubClient } from '../../integrations/github/github-client.js';
import type { ModuleDeps } from '../../shared/module-deps.js';
import type { AppsRepository } from '../apps/apps.repository.js';
import { createPullRequestsRepository } from '../pull-requests/pull-requests.repository.js';
import { createIntegrationStatus, type IntegrationStatusLink } from '../status/integration-status.js';
import { createReportStreakLookup } from './report-streak-lookup.js';
import { createSuspectsRepository } from './suspects.repository.js';
import { createSuspectsService, type StreakLookup } from './suspects.service.js';

/**
 * Suspects of failing specs over the configured GitHub. `lookup` gives a spec's streak bounds;
 * by default they are read from the stored report.
 */
export function createSuspectsModule(
  { config, db, log }: ModuleDeps,
  links: { appsRepository: AppsRepository; lookup?: StreakLookup } & IntegrationStatusLink,
) {
  const repository = createSuspectsRepository(db);
  const github = createGitHubClient(
    config,
    { debug: (message) => log.debug(message), warn: (message) => log.warn(message) },
    (links.integrationStatus ?? createIntegrationStatus(db)).outcomes('github', [config.github.token]),
  );
  const pullRequests = createPullRequestsRepository(db);
  const service = createSuspectsService({
    findApp: (id) => links.appsRepository.findById(id),
    lookup: links.lookup ?? createReportStreakLookup(repository),
    github,
    ranges: repository,
    trackedIds: (owner, repo, numbers) => pullRequests.trackedIds(owner, repo, numbers),
    log,
  });
  return { service };
}
