import type { Static } from '@sinclair/typebox';
import type {
  CreateQuarantineBody,
  QuarantineListResponse,
  QuarantineResponse,
  ReviewResponse,
} from '../modules/quarantine/quarantine.schema.js';
import type { Caller } from './resource-groups.js';

/** `/api/quarantine`: known failures, lifted by hand, by their ticket being done or by expiry. */
export function quarantineGroup(client: Caller) {
  return {
    list: (query: { appId?: number; active?: boolean; limit?: number; offset?: number } = {}) =>
      client.call<Static<typeof QuarantineListResponse>>('GET', '/api/quarantine', {
        query: { ...query },
      }),
    get: (id: number) => client.call<Static<typeof QuarantineResponse>>('GET', `/api/quarantine/${id}`),
    create: (body: CreateQuarantineBody) =>
      client.call<Static<typeof QuarantineResponse>>('POST', '/api/quarantine', { body }),
    /** Lifts it by hand (204, no body). */
    lift: (id: number) => client.call<unknown>('DELETE', `/api/quarantine/${id}`),
    /**
     * `POST /api/quarantine/review` (the quarantine-review job). Safe to repeat: a lifted
     * quarantine is not lifted or announced again, so it is retried like an idempotent request.
     */
    review: () => client.call<ReviewResponse>('POST', '/api/quarantine/review', { idempotent: true }),
  };
}
