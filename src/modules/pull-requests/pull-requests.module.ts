import type { GitHubClient } from '../../integrations/github/github-client.js';
import type { ModuleDeps } from '../module-deps.js';
import type { NotificationSink } from '../notifications/notification-sink.js';
import { createPullRequestsRepository } from './pull-requests.repository.js';
import { createPullRequestsService } from './pull-requests.service.js';
import { createPullRequestSync } from './pull-requests.sync.js';

/** Pull requests over one database and the process's GitHub client; `pr_update` notifications go to `notify`. */
export function createPullRequestsModule(
  { config, db, log }: ModuleDeps,
  links: { github: GitHubClient; notify: NotificationSink },
) {
  const repository = createPullRequestsRepository(db);
  const service = createPullRequestsService({
    repository,
    github: links.github,
    githubApiUrl: config.github.apiUrl,
  });
  const sync = createPullRequestSync({ repository, service, notify: links.notify, log });
  return { service, sync };
}
