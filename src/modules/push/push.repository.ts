import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { nowIso } from '../../shared/time.js';

/** Tokens may be 4096 characters, too long for a unique index: rows are keyed by their sha256. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface StoredToken {
  id: number;
  token: string;
}

export function createDeviceTokensRepository(db: Db) {
  return {
    /** Inserts the token, or refreshes `last_used_at` when it is already registered. */
    async upsert(token: string): Promise<void> {
      const now = nowIso();
      await db
        .insertInto('device_tokens')
        .values({ token, token_hash: hashToken(token), created_at: now, last_used_at: now })
        .onConflict((conflict) => conflict.column('token_hash').doUpdateSet({ last_used_at: now }))
        .execute();
    },

    async remove(token: string): Promise<boolean> {
      const result = await db
        .deleteFrom('device_tokens')
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async removeMany(tokens: readonly string[]): Promise<number> {
      let removed = 0;
      // Bounded IN lists: SQLite and PostgreSQL both cap the number of bound parameters.
      for (let start = 0; start < tokens.length; start += 500) {
        const hashes = tokens.slice(start, start + 500).map(hashToken);
        const result = await db
          .deleteFrom('device_tokens')
          .where('token_hash', 'in', hashes)
          .executeTakeFirst();
        removed += Number(result.numDeletedRows);
      }
      return removed;
    },

    async find(token: string) {
      return db
        .selectFrom('device_tokens')
        .selectAll()
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst();
    },

    /** One page of tokens after `afterId`, by id (keyset paging keeps memory flat for many devices). */
    async page(afterId: number, size: number): Promise<StoredToken[]> {
      return db
        .selectFrom('device_tokens')
        .select(['id', 'token'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(size)
        .execute();
    },
  };
}

export type DeviceTokensRepository = ReturnType<typeof createDeviceTokensRepository>;
