import { createGitHubClient } from '../../integrations/github/github-client.js';
import { describeGitHubConfig } from '../../integrations/github/github-config.js';
import type { ModuleDeps } from '../../shared/module-deps.js';
import type { NotificationSink } from '../notifications/notification-sink.js';
import type { IntegrationStatusTracker } from '../status/integration-status.js';
import { createPullRequestsRepository } from './pull-requests.repository.js';
import { createPullRequestsService } from './pull-requests.service.js';
import { createPullRequestSync } from './pull-requests.sync.js';

/** Pull requests over one database and the configured GitHub; `pr_update` notifications go to `notify`. */
export function createPullRequestsModule(
  { config, db, log }: ModuleDeps,
  links: { notify: NotificationSink; integrationStatus: IntegrationStatusTracker },
) {
  const { warning } = describeGitHubConfig(config);
  if (warning) log.warn(warning);
  const repository = createPullRequestsRepository(db);
  const github = createGitHubClient(
    config,
    { debug: (message) => log.debug(message), warn: (message) => log.warn(message) },
    links.integrationStatus.outcomes('github', [config.github.token]),
  );
  const service = createPullRequestsService({ repository, github, githubApiUrl: config.github.apiUrl });
  const sync = createPullRequestSync({ repository, service, notify: links.notify, log });
  return { service, sync };
}
