import { isUniqueViolation } from '../../db/errors.js';
import type { Page } from '../../shared/page.js';
import { ConflictError, NotFoundError, type ValidationDetail, ValidationError } from '../../shared/errors.js';
import { parseIsoInstant } from '../../shared/time.js';
import type { QuarantineFilter, QuarantineRepository, QuarantineRow } from './quarantine.repository.js';
import { looksLikeTestId } from '../tests/test-identity.js';
import type { CreateQuarantineBody, LiftedReason, Quarantine } from './quarantine.schema.js';

export function toQuarantine(row: QuarantineRow): Quarantine {
  return {
    id: row.id,
    appId: row.app_id,
    spec: row.spec,
    test: row.test === '' ? null : row.test,
    reason: row.reason,
    ticketKey: row.ticket_key,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    liftedAt: row.lifted_at,
    liftedReason: row.lifted_reason as LiftedReason | null,
  };
}

/**
 * The checks the body schema cannot make: an expiry must lie ahead of the service's clock. Returned
 * as details so the route can list them with the schema's own findings in one 400.
 */
export function expiryProblems(expiresAt: unknown, nowMs: number): ValidationDetail[] {
  if (typeof expiresAt !== 'string') return [];
  const instant = parseIsoInstant(expiresAt);
  if (instant === undefined || Date.parse(instant) > nowMs) return [];
  return [
    {
      field: 'expiresAt',
      code: 'INVALID_VALUE',
      message: 'expiresAt must be in the future',
      value: expiresAt,
    },
  ];
}

export interface QuarantineServiceDeps {
  repository: QuarantineRepository;
  /** Milliseconds since the epoch (the container's clock, moved by tests). */
  clock: () => number;
}

/** Creating, reading and lifting quarantines by hand (the review job lifts them in review.ts). */
export function createQuarantineService({ repository, clock }: QuarantineServiceDeps) {
  async function requireApp(appId: number) {
    const names = await repository.appNames([appId]);
    if (!names.has(appId)) throw new NotFoundError(`Application ${appId} not found`);
  }

  /** The title path a body's `test` names ('' for none): a known testId of the spec is resolved. */
  async function testOf(body: CreateQuarantineBody): Promise<string> {
    const given = body.test?.trim() ?? '';
    if (given === '') return '';
    const known = looksLikeTestId(given) ? await repository.testById(body.appId, given) : undefined;
    if (!known) return given;
    if (known.spec !== body.spec) {
      throw ValidationError.single(
        'test',
        'INVALID_VALUE',
        `Test ${given} belongs to spec "${known.spec}", not "${body.spec}"`,
        given,
      );
    }
    return known.title;
  }

  return {
    async create(body: CreateQuarantineBody): Promise<Quarantine> {
      const now = clock();
      const problems = expiryProblems(body.expiresAt, now);
      if (problems.length > 0) throw new ValidationError(problems);
      await requireApp(body.appId);
      const { spec } = body;
      const test = await testOf(body);
      const conflict = () =>
        new ConflictError(
          test === ''
            ? `Spec "${spec}" of application ${body.appId} is already quarantined`
            : `Test "${test}" of spec "${spec}" of application ${body.appId} is already quarantined`,
        );
      const active = await repository.listActive(body.appId);
      // A test of a quarantined spec is already set aside with it.
      if (active.some((row) => row.spec === spec && (row.test === test || row.test === ''))) throw conflict();
      try {
        const row = await repository.insert({
          appId: body.appId,
          spec,
          test,
          reason: body.reason.trim(),
          ticketKey: body.ticketKey ?? null,
          expiresAt: body.expiresAt ? (parseIsoInstant(body.expiresAt) ?? null) : null,
          createdAt: new Date(now).toISOString(),
        });
        return toQuarantine(row);
      } catch (error) {
        // Another request created it between the check and the insert (the partial unique index).
        if (isUniqueViolation(error)) throw conflict();
        throw error;
      }
    },

    async get(id: number): Promise<Quarantine> {
      const row = await repository.findById(id);
      if (!row) throw new NotFoundError(`Quarantine ${id} not found`);
      return toQuarantine(row);
    },

    async list(filter: QuarantineFilter, page: Page) {
      if (filter.appId !== undefined) await requireApp(filter.appId);
      const { rows, total } = await repository.list(filter, page.limit, page.offset);
      return { items: rows.map(toQuarantine), total };
    },

    /** Lifts by hand; an unknown or already lifted quarantine is 404 (nothing to lift). */
    async lift(id: number): Promise<void> {
      const lifted = await repository.lift(id, new Date(clock()).toISOString(), 'manual');
      if (!lifted) throw new NotFoundError(`No active quarantine ${id}`);
    },
  };
}

export type QuarantineService = ReturnType<typeof createQuarantineService>;
