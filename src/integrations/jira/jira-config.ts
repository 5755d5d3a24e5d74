import type { Config } from '../../config/config.js';

export interface JiraSettings {
  baseUrl: string;
  email: string;
  apiToken: string;
  /** Needed by the manual_qa query only. */
  manualQaProject: string | undefined;
}

/** The variables Jira needs; every one of them is required for any call. */
export const JIRA_REQUIRED_VARIABLES = ['JIRA_BASE_URL', 'JIRA_EMAIL', 'JIRA_API_TOKEN'] as const;

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
