import type { IntegrationStatus, ServiceStatus } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { useAsync } from './useAsync';

export type IntegrationName = keyof ServiceStatus['integrations'];

/** What each integration is for, in the words a person setting up the service needs. */
export const INTEGRATIONS: Record<IntegrationName, { label: string; purpose: string }> = {
  cypress: {
    label: 'Test results (Cypress)',
    purpose: 'the daily E2E report of the applications that upload no results',
  },
  github: { label: 'GitHub', purpose: 'pull request titles, states and ages' },
  jira: { label: 'Tracker (Jira)', purpose: 'the Tickets page and manual-testing reminders' },
  circleci: { label: 'CircleCI', purpose: 'the "Run E2E" button and scheduled runs' },
  fcm: { label: 'Push notifications (FCM)', purpose: 'phone notifications' },
};

/** `GET /api/status`, loaded once per page that needs it. */
export function useServiceStatus() {
  const client = useClient();
  return useAsync(async () => (await client.status()).data, [client]);
}

export function unconfigured(status: ServiceStatus | undefined): IntegrationName[] {
  if (!status) return [];
  return (Object.keys(INTEGRATIONS) as IntegrationName[]).filter(
    (name) => !status.integrations[name].configured,
  );
}

export type { IntegrationStatus, ServiceStatus };
