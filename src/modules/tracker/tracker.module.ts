import type { Config } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { createJiraClient } from '../../integrations/jira/jira-client.js';
import { readJiraSettings } from '../../integrations/jira/jira-config.js';
import { integrationStatusOf } from '../status/integration-status.js';
import { createTrackerService, type TrackerService } from './tracker.service.js';

/**
 * The tracker queries over the configured Jira; unconfigured, every query answers 502. With `db`
 * the Jira calls are recorded for the status page.
 */
export function createTrackerModule(
  config: Config,
  log?: { info(message: string): void },
  db?: Db,
): { service: TrackerService } {
  const { settings, missing } = readJiraSettings(config);
  if (!settings)
    log?.info(`Jira is not configured (missing ${missing.join(', ')}): tracker endpoints answer 502`);
  return {
    service: createTrackerService({
      jira: settings
        ? createJiraClient(
            settings,
            config.externalTimeoutMs,
            db ? integrationStatusOf(db).outcomes('jira', [settings.apiToken]) : undefined,
          )
        : undefined,
      missingVariables: missing,
      manualQaProject: settings?.manualQaProject,
      cacheMs: config.jira.cacheMs,
    }),
  };
}
