import type { Static } from '@sinclair/typebox';
import type { CreatedKeyResponse, CreateKeyBody, KeyListResponse } from '../modules/keys/keys.schema.js';
import type { Caller } from './resource-groups.js';

/** `/api/keys` (admin keys only): keys for CI (upload) and for readers, shown once, revocable. */
export function keysGroup(client: Caller) {
  return {
    list: (query: { limit?: number; offset?: number } = {}) =>
      client.call<Static<typeof KeyListResponse>>('GET', '/api/keys', { query: { ...query } }),
    /** The answer holds the key itself: the only time it is ever shown. */
    create: (body: CreateKeyBody) =>
      client.call<Static<typeof CreatedKeyResponse>>('POST', '/api/keys', { body }),
    /** Revokes it (204, no body); every API process refuses it within a second. */
    revoke: (id: number) => client.call<unknown>('DELETE', `/api/keys/${id}`),
  };
}
