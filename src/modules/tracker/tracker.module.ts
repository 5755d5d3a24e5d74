import type { Config } from '../../config/config.js';
import { createJiraClient } from '../../integrations/jira/jira-client.js';
import { readJiraSettings } from '../../integrations/jira/jira-config.js';
import { createTrackerService, type TrackerService } from './tracker.service.js';

/** The tracker queries over the configured Jira; unconfigured, every query answers 502. */
export function createTrackerModule(
  config: Config,
  log?: { info(message: string): void },
): { service: TrackerService } {
  const { settings, missing } = readJiraSettings(config);
  if (!settings)
    log?.info(`Jira is not configured (missing ${missing.join(', ')}): tracker endpoints answer 502`);
  return {
    service: createTrackerService({
      jira: settings ? createJiraClient(settings, config.externalTimeoutMs) : undefined,
      missingVariables: missing,
      manualQaProject: settings?.manualQaProject,
      cacheMs: config.jira.cacheMs,
    }),
  };
}
