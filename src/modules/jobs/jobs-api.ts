import type { JobsApi } from './job-definitions.js';
import type { JobsClient } from './jobs-client.js';
import type { AppTriggerSource } from './scheduler.js';

/** The jobs' view of the API, backed by the typed client: the one way jobs reach the service. */
export function createJobsApi(client: JobsClient): JobsApi & AppTriggerSource {
  return {
    syncPullRequests: async () => (await client.pullRequests.sync()).data,
    deleteCompletedTodos: async () => (await client.todos.deleteCompleted()).data.deleted,
    async fetchManualQaTickets() {
      const { data } = await client.tracker.manualQa();
      return { total: data.total, keys: data.issues.map((issue) => issue.key) };
    },
    reviewQuarantines: async () => (await client.quarantine.review()).data,
    listApps: () => client.apps.listAll(),
    triggerRun: async (appId) => (await client.manualRuns.trigger(appId)).data,
  };
}
