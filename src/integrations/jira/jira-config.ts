import type { Config } from '../../config/config.js';

export interface JiraSettings {
  baseUrl: string;
  email: string;
  apiToken: string;
  /** Needed by the manual_qa query only. */
  manualQaProject: string | undefined;
}

/** Jira settings, or undefined (with the missing variable names) when Jira is not configured. */
export function readJiraSettings(
  config: Pick<Config, 'jira'>,
): { settings: JiraSettings; missing: [] } | { settings: undefined; missing: string[] } {
  const { baseUrl, email, apiToken, manualQaProject } = config.jira;
  const missing = [
    ...(baseUrl ? [] : ['JIRA_BASE_URL']),
    ...(email ? [] : ['JIRA_EMAIL']),
    ...(apiToken ? [] : ['JIRA_API_TOKEN']),
  ];
  if (!baseUrl || !email || !apiToken) return { settings: undefined, missing };
  return {
    settings: {
      baseUrl: baseUrl.replace(/\/+$/, ''),
      email,
      apiToken,
      manualQaProject: manualQaProject || undefined,
    },
    missing: [],
  };
}
