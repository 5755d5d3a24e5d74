import { createJiraClient } from '../../integrations/jira/jira-client.js';
import { readJiraSettings } from '../../integrations/jira/jira-config.js';
import type { ModuleDeps } from '../../shared/module-deps.js';
import { createIntegrationStatus, type IntegrationStatusLink } from '../status/integration-status.js';
import { createTrackerService, type TrackerService } from './tracker.service.js';

/**
 * The tracker queries over the configured Jira (its calls recorded for the status page);
 * unconfigured, every query answers 502 and the boot log says which variables are missing.
 */
export function createTrackerModule(
  { config, db, log }: ModuleDeps,
  links: IntegrationStatusLink = {},
): { service: TrackerService } {
  const { settings, missing } = readJiraSettings(config);
  if (!settings)
    log.info(`Jira is not configured (missing ${missing.join(', ')}): tracker endpoints answer 502`);
  return {
    service: createTrackerService({
      jira: settings
        ? createJiraClient(
            settings,
            config.externalTimeoutMs,
            (links.integrationStatus ?? createIntegrationStatus(db)).outcomes('jira', [settings.apiToken]),
          )
        : undefined,
      missingVariables: missing,
      manualQaProject: settings?.manualQaProject,
      cacheMs: config.jira.cacheMs,
    }),
  };
}
