import { randomUUID } from 'node:crypto';
import { CHANNELS } from '../../broker/channels.js';
import type { ModuleDeps } from '../module-deps.js';
import { createKeyLookup, type KeyLookupCache } from './key-lookup.js';
import { createKeysRepository, type KeysRepository } from './keys.repository.js';
import { createKeysService, type KeysService } from './keys.service.js';

export interface KeysModule {
  service: KeysService;
  /** What the key guard asks about a presented key. */
  lookup: KeyLookupCache;
  repository: KeysRepository;
  clock: () => number;
  /**
   * Hears revocations made by other processes (API processes call it once); resolves with the
   * function that stops listening.
   */
  listen(): Promise<() => Promise<void>>;
}

/**
 * Keys made through `/api/keys`. A revocation is written to the database, forgotten by this
 * process at once and announced on `keys:revoked`, so every other API process forgets the key
 * within milliseconds; the lookup's short TTL (API_KEY_CACHE_MS) covers a message that is lost.
 */
export function createKeysModule(
  { config, db, broker, log }: ModuleDeps,
  links: { clock: () => number },
): KeysModule {
  const repository = createKeysRepository(db);
  const origin = randomUUID();
  const lookup = createKeyLookup({ repository, clock: links.clock, ttlMs: config.auth.keyCacheMs, log });

  const announce = async (id: number) => {
    lookup.forget(id);
    try {
      await broker.publish(CHANNELS.keyRevoked, { origin, id });
    } catch (error) {
      // The revocation is stored; other processes see it when their entry ages out.
      log.warn(
        { err: error, keyId: id },
        'could not announce a key revocation; other processes wait for the TTL',
      );
    }
  };

  return {
    service: createKeysService({ repository, clock: links.clock, onRevoked: announce }),
    lookup,
    repository,
    clock: links.clock,
    async listen() {
      return broker.subscribe(CHANNELS.keyRevoked, (message) => {
        if (message.origin !== origin) lookup.forget(message.id);
      });
    },
  };
}
