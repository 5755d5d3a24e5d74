import type { Credential, KeyScope } from '../../shared/credentials.js';
import { ConflictError, NotFoundError, type ValidationDetail, ValidationError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import { parseIsoInstant } from '../../shared/time.js';
import { generateKey, hashKey, PREFIX_LENGTH } from './key-material.js';
import type { ApiKeyRow, KeysRepository } from './keys.repository.js';
import type { ApiKey, CreatedApiKey, CreateKeyBody } from './keys.schema.js';

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as KeyScope,
    apps: JSON.parse(row.apps) as string[],
    prefix: row.prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

export function toCredential(row: ApiKeyRow): Credential {
  return Object.freeze({
    id: row.id,
    name: row.name,
    scope: row.scope as KeyScope,
    apps: Object.freeze(JSON.parse(row.apps) as string[]),
  });
}

/**
 * The checks the body schema cannot make, as details the route lists with the schema's own: an
 * expiry must lie ahead of the service's clock, and only upload keys are limited to applications.
 */
export function createProblems(body: unknown, nowMs: number): ValidationDetail[] {
  if (typeof body !== 'object' || body === null) return [];
  const { scope, apps, expiresAt } = body as Record<string, unknown>;
  const problems: ValidationDetail[] = [];
  if (Array.isArray(apps) && apps.length > 0 && typeof scope === 'string' && scope !== 'upload') {
    problems.push({
      field: 'apps',
      code: 'INVALID_VALUE',
      message: 'apps limits upload keys only; leave it out for admin and read keys',
    });
  }
  if (typeof expiresAt === 'string') {
    const instant = parseIsoInstant(expiresAt);
    if (instant !== undefined && Date.parse(instant) <= nowMs) {
      problems.push({
        field: 'expiresAt',
        code: 'INVALID_VALUE',
        message: 'expiresAt must be in the future',
        value: expiresAt,
      });
    }
  }
  return problems;
}

export interface KeysServiceDeps {
  repository: KeysRepository;
  clock: () => number;
  /** Told of each revocation, so every process stops accepting the key. */
  onRevoked: (id: number) => Promise<void>;
}

/** Making, listing and revoking keys; the key itself exists only in the answer that creates it. */
export function createKeysService({ repository, clock, onRevoked }: KeysServiceDeps) {
  return {
    async create(body: CreateKeyBody): Promise<CreatedApiKey> {
      const now = clock();
      const problems = createProblems(body, now);
      if (problems.length > 0) throw new ValidationError(problems);
      const key = generateKey();
      const apps = body.scope === 'upload' ? [...new Set((body.apps ?? []).map((code) => code.trim()))] : [];
      const row = await repository.insert({
        name: body.name.trim(),
        scope: body.scope,
        apps,
        prefix: key.slice(0, PREFIX_LENGTH),
        keyHash: hashKey(key),
        createdAt: new Date(now).toISOString(),
        expiresAt: body.expiresAt ? (parseIsoInstant(body.expiresAt) ?? null) : null,
      });
      const { id, name, scope, prefix, createdAt, expiresAt } = toApiKey(row);
      return { id, name, scope, apps, prefix, key, createdAt, expiresAt, lastUsedAt: null };
    },

    async list(page: Page) {
      const { rows, total } = await repository.list(page.limit, page.offset);
      return { items: rows.map(toApiKey), total };
    },

    /** 404 for an unknown id, 409 for a key already revoked; every process refuses it within 1 s. */
    async revoke(id: number): Promise<void> {
      const row = await repository.findById(id);
      if (!row) throw new NotFoundError(`API key ${id} not found`);
      const alreadyRevoked = () => new ConflictError(`API key ${id} is already revoked`);
      if (row.revoked_at !== null) throw alreadyRevoked();
      if (!(await repository.revoke(id, new Date(clock()).toISOString()))) throw alreadyRevoked();
      await onRevoked(id);
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
