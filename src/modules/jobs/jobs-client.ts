import type { TriggerableApp } from './scheduler.js';

/** An answer of the API as the jobs read it: the `data` of the success envelope. */
interface Answer<T> {
  data: T;
}

/**
 * The part of the API the jobs call, as the typed client (`DashboardClient`) offers it. The jobs
 * depend on this shape, not on the client: the container hands them the client, a test may hand
 * them anything of this shape.
 */
export interface JobsClient {
  pullRequests: { sync(): Promise<Answer<unknown>> };
  todos: { deleteCompleted(): Promise<Answer<{ deleted: number }>> };
  tracker: { manualQa(): Promise<Answer<{ total: number; issues: readonly { key: string }[] }>> };
  quarantine: {
    review(): Promise<Answer<{ lifted: unknown[]; unchecked: number; trackerError: string | null }>>;
  };
  apps: { listAll(): Promise<TriggerableApp[]> };
  manualRuns: { trigger(appId: number): Promise<Answer<unknown>> };
}
