import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { createGitHubClient } from '../../integrations/github/github-client.js';
import { describeGitHubConfig } from '../../integrations/github/github-config.js';
import type { NotificationSink } from '../notifications/notification-sink.js';
import { integrationStatusOf } from '../status/integration-status.js';
import { createPullRequestsRepository } from './pull-requests.repository.js';
import { createPullRequestsService } from './pull-requests.service.js';
import { createPullRequestSync } from './pull-requests.sync.js';

/**
 * Pull requests over one database and the configured GitHub. Without `notify` the `pr_update`
 * notifications are stored straight into the notifications table (no push).
 */
export function createPullRequestsModule(deps: {
  config: Config;
  db: Db;
  log: Pick<FastifyBaseLogger, 'debug' | 'warn'>;
  notify?: NotificationSink;
}) {
  const { warning } = describeGitHubConfig(deps.config);
  if (warning) deps.log.warn(warning);
  const repository = createPullRequestsRepository(deps.db);
  const github = createGitHubClient(
    deps.config,
    { debug: (message) => deps.log.debug(message), warn: (message) => deps.log.warn(message) },
    integrationStatusOf(deps.db).outcomes('github', [deps.config.github.token]),
  );
  const service = createPullRequestsService({ repository, github, githubApiUrl: deps.config.github.apiUrl });
  const sync = createPullRequestSync({
    repository,
    service,
    notify: deps.notify ?? ((input) => repository.insertNotification(input)),
    log: deps.log,
  });
  return { service, sync };
}
