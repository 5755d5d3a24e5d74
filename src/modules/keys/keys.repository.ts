import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isStorableId, toCount } from '../../db/errors.js';
import { pageWithTotal } from '../../db/paging.js';
import type { ApiKeysTable } from '../../db/schema-results.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export interface NewApiKey {
  name: string;
  scope: string;
  apps: readonly string[];
  prefix: string;
  keyHash: string;
  createdAt: string;
  expiresAt: string | null;
}

/** Stored keys (their hashes only); the only place their SQL lives. */
export function createKeysRepository(db: Db) {
  return {
    async insert(key: NewApiKey): Promise<ApiKeyRow> {
      return db
        .insertInto('api_keys')
        .values({
          name: key.name,
          scope: key.scope,
          apps: JSON.stringify(key.apps),
          prefix: key.prefix,
          key_hash: key.keyHash,
          created_at: key.createdAt,
          expires_at: key.expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The one lookup a request with a key costs: by the unique index on the hash. */
    async findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    },

    async findById(id: number): Promise<ApiKeyRow | undefined> {
      if (!isStorableId(id)) return undefined;
      return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Newest first. */
    async list(limit: number, offset: number) {
      return pageWithTotal(
        { limit, offset },
        () =>
          db.selectFrom('api_keys').selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
        async () =>
          toCount(
            (
              await db
                .selectFrom('api_keys')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirst()
            )?.n,
          ),
      );
    },

    /** Revokes a key not yet revoked; false when it was (another request got there first). */
    async revoke(id: number, at: string): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Records a use unless one was recorded after `notAfter`: however many processes see the key,
     * `last_used_at` is written at most once a minute.
     */
    async touch(id: number, at: string, notAfter: string): Promise<void> {
      await db
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', notAfter)]))
        .execute();
    },

    /** The ids of the applications with these codes (an upload key's applications). */
    async appIds(codes: readonly string[]): Promise<number[]> {
      if (codes.length === 0) return [];
      const rows = await db
        .selectFrom('apps')
        .select('id')
        .where('code', 'in', [...codes])
        .execute();
      return rows.map((row) => row.id);
    },
  };
}

export type KeysRepository = ReturnType<typeof createKeysRepository>;
