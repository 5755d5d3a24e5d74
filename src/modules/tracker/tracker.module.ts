import type { JiraIntegration } from '../../integrations/integrations.js';
import type { ModuleDeps } from '../module-deps.js';
import { createTrackerService, type TrackerService } from './tracker.service.js';

/**
 * The tracker queries over the process's Jira client; unconfigured, every query answers 502
 * naming the missing variables.
 */
export function createTrackerModule(
  { config }: ModuleDeps,
  links: { jira: JiraIntegration },
): { service: TrackerService } {
  return {
    service: createTrackerService({
      jira: links.jira.client,
      missingVariables: links.jira.missing,
      manualQaProject: links.jira.manualQaProject,
      cacheMs: config.jira.cacheMs,
    }),
  };
}
