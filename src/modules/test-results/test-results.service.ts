import type { Readable } from 'node:stream';
import type { Page } from '../../shared/page.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import { nowIso } from '../../shared/time.js';
import { RUN_ERROR_SPEC, type RunError, type SpecTally, type UploadFormat } from './report-model.js';
import type { TestResultsRepository, UploadRow } from './test-results.repository.js';
import type { TestResultUpload, UploadQuery } from './test-results.schema.js';
import { bodyKindOf, isGzipped, readUpload } from './upload-body.js';
import type { TestRecorder } from '../tests/test-recorder.js';

export interface UploadRequest {
  query: UploadQuery;
  body: Readable | undefined;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  contentLength: string | undefined;
}

/** The stored errors of an upload (none for uploads stored before they were kept). */
function errorsOf(row: UploadRow): RunError[] {
  if (!row.errors) return [];
  try {
    const parsed = JSON.parse(row.errors) as unknown;
    return Array.isArray(parsed) ? (parsed as RunError[]) : [];
  } catch {
    return [];
  }
}

export function toUpload(row: UploadRow): TestResultUpload {
  return {
    id: row.id,
    appId: row.app_id,
    runNumber: row.run_number,
    format: row.format as UploadFormat,
    specs: row.specs,
    tests: row.tests,
    passed: row.passed,
    failed: row.failed,
    flaky: row.flaky,
    skipped: row.skipped,
    createdAt: row.created_at,
    attempt: row.attempt,
    status: row.status === 'errored' ? 'errored' : 'ok',
    errors: errorsOf(row),
    ...(row.triggered_by !== null ? { triggeredBy: row.triggered_by } : {}),
  };
}

/**
 * A spec failed when any test failed or an error outside its tests named it; it passed when any
 * test ran; all skipped is noTests.
 */
function specStatus(counts: SpecTally): string {
  if (counts.failed > 0 || counts.errored) return 'failed';
  return counts.passed + counts.flaky > 0 ? 'passed' : 'noTests';
}

/** What happens after an upload is stored: its reports get regenerated (never awaited by the answer's content). */
export type UploadAccepted = (upload: { appId: number; createdAt: string }) => Promise<void>;

export function createTestResultsService(deps: {
  repository: TestResultsRepository;
  maxBytes: number;
  /** Told of every stored upload (201, a shard or an attempt added); its failure never fails the upload. */
  onAccepted?: UploadAccepted;
  warn?: (error: unknown, message: string) => void;
  /** Records every test of an upload of the app (per-test storage, issue #36). */
  recordTests?: (appId: number) => TestRecorder;
}) {
  const { repository } = deps;

  /** Regeneration is requested, never waited for: a failure to ask is logged, the upload stands. */
  async function announce(row: UploadRow) {
    try {
      await deps.onAccepted?.({ appId: row.app_id, createdAt: row.created_at });
    } catch (error) {
      deps.warn?.(error, 'could not queue the regeneration of the reports an upload changes');
    }
  }

  return {
    /** Stores a report file for a run; `created: false` when that very file was already stored. */
    async upload(request: UploadRequest): Promise<{ upload: TestResultUpload; created: boolean }> {
      const { query } = request;
      const kind = bodyKindOf(request.contentType);
      const gzipped = isGzipped(request.contentEncoding);
      if (!request.body) throw ValidationError.single('body', 'EMPTY_BODY', 'Request body is required');
      const app = await repository.findAppByCode(query.app);
      if (!app) {
        request.body.resume();
        throw new NotFoundError(
          `Application with code "${query.app}" not found: create it with POST /api/apps ` +
            '(or let the CLI create it: dashboard upload FILE --app CODE --create-app NAME)',
        );
      }
      const recorder = deps.recordTests?.(app.id);
      const declared = Number(request.contentLength);
      const { report, digest } = await readUpload(request.body, {
        kind,
        gzipped,
        declaredLength:
          request.contentLength !== undefined && Number.isFinite(declared) ? declared : undefined,
        maxBytes: deps.maxBytes,
        root: query.root,
        ...(recorder ? { tests: recorder } : {}),
      });
      const existing = await repository.findByFile(app.id, query.run, digest);
      if (existing) return { upload: toUpload(existing), created: false };
      const packs = recorder ? await recorder.finish() : new Map<string, Buffer>();
      const createdAt = query.createdAt
        ? new Date(query.createdAt).toISOString()
        : (report.startedAt ?? nowIso());
      const { row, created } = await repository.insert(
        {
          app_id: app.id,
          run_number: query.run,
          format: report.format,
          digest,
          specs: report.specs.filter((spec) => spec.spec !== RUN_ERROR_SPEC).length,
          ...report.totals,
          commit_sha: query.commit ?? null,
          branch: query.branch ?? null,
          author: query.author ?? null,
          triggered_by: query.triggeredBy ?? null,
          attempt: query.attempt ?? 1,
          status: report.status,
          errors: report.errors.length > 0 ? JSON.stringify(report.errors) : null,
          run_url: query.runUrl ?? null,
          created_at: createdAt,
          uploaded_at: nowIso(),
        },
        report.specs.map((spec) => ({
          spec: spec.spec,
          status: specStatus(spec),
          tests: spec.tests,
          passed: spec.passed,
          failed: spec.failed,
          flaky: spec.flaky,
          skipped: spec.skipped,
          duration_ms: Math.min(spec.durationMs, 2_147_483_647),
          first_failure_message: spec.firstFailureMessage,
          results: packs.get(spec.spec) ?? null,
        })),
        report.failures.map(({ testKey, ...failure }) => ({
          ...failure,
          identity_id: recorder?.identityOfFailure(testKey) ?? null,
        })),
      );
      if (created) await announce(row);
      return { upload: toUpload(row), created };
    },

    async list(page: Page, appId?: number): Promise<{ items: TestResultUpload[]; total: number }> {
      const { rows, total } = await repository.list({ appId, limit: page.limit, offset: page.offset });
      return { items: rows.map(toUpload), total };
    },

    async get(id: number) {
      const row = await repository.findById(id);
      if (!row) throw new NotFoundError(`Test result upload ${id} not found`);
      const failures = await repository.failuresOf(id);
      return {
        ...toUpload(row),
        failures: failures.map(({ spec, test, message, stack, location }) => ({
          spec,
          test,
          message,
          stack,
          location,
        })),
      };
    },

    async delete(id: number): Promise<void> {
      if (!(await repository.delete(id))) throw new NotFoundError(`Test result upload ${id} not found`);
    },
  };
}

export type TestResultsService = ReturnType<typeof createTestResultsService>;
