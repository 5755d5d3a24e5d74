import { ExternalServiceError } from '../../shared/errors.js';
import { type CallOutcomes, reportingOutcome, UNTRACKED } from '../call-outcomes.js';

/** Manual-run statuses (docs/contract-notes.md, "Manual E2E runs"): the first four block a new trigger of the same app. */
export const ACTIVE_RUN_STATUSES = ['created', 'running', 'on_hold', 'failing'] as const;
export const RUN_STATUSES = [...ACTIVE_RUN_STATUSES, 'failed', 'success'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface TriggeredPipeline {
  id: string;
  number: number | null;
  state: string;
  createdAt: string;
}

export interface CircleCiClient {
  /** `POST /api/v2/project/{slug}/pipeline` with the branch and pipeline parameters. */
  triggerPipeline(
    slug: string,
    options: { branch?: string; parameters?: Record<string, unknown> },
  ): Promise<TriggeredPipeline>;
  /** Status of a pipeline, derived from its workflows. */
  pipelineStatus(pipelineId: string): Promise<RunStatus>;
}

/**
 * `running`, `failing` or `on_hold` while any workflow is; else `failed` if any failed, errored
 * or was canceled; else `success`. `created` while there is no workflow yet (or `failed` when the
 * pipeline itself errored, since it then never gets one).
 */
export function runStatusFromWorkflows(statuses: readonly string[], pipelineState?: string): RunStatus {
  if (statuses.length === 0) return pipelineState === 'errored' ? 'failed' : 'created';
  if (statuses.includes('failing')) return 'failing';
  if (statuses.includes('running')) return 'running';
  if (statuses.includes('on_hold')) return 'on_hold';
  if (statuses.some((status) => ['failed', 'error', 'canceled', 'unauthorized'].includes(status)))
    return 'failed';
  return 'success';
}

const encodeSlug = (slug: string) => slug.split('/').map(encodeURIComponent).join('/');

/** CircleCI API v2 with the `Circle-Token` header; every call is bounded by `timeoutMs`. */
export function createCircleCiClient(options: {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  /** Told about every call (status page). */
  outcomes?: CallOutcomes;
}): CircleCiClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const outcomes = options.outcomes ?? UNTRACKED;

  const call = <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> =>
    reportingOutcome(outcomes, () => send<T>(method, path, body));

  async function send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          'circle-token': options.token,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new ExternalServiceError(
        'CircleCI',
        timedOut ? `CircleCI did not answer within ${options.timeoutMs} ms` : 'CircleCI could not be reached',
      );
    }
    const text = await response.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const message = (parsed as { message?: unknown } | undefined)?.message;
      const detail = typeof message === 'string' ? `: ${message.slice(0, 200)}` : '';
      throw new ExternalServiceError('CircleCI', `CircleCI answered ${response.status}${detail}`);
    }
    if (parsed === undefined || typeof parsed !== 'object') {
      throw new ExternalServiceError('CircleCI', 'CircleCI answered with an unexpected body');
    }
    return parsed as T;
  }

  return {
    async triggerPipeline(slug, { branch, parameters }) {
      const pipeline = await call<{ id?: unknown; number?: unknown; state?: unknown; created_at?: unknown }>(
        'POST',
        `/api/v2/project/${encodeSlug(slug)}/pipeline`,
        {
          ...(branch ? { branch } : {}),
          ...(parameters && Object.keys(parameters).length > 0 ? { parameters } : {}),
        },
      );
      if (typeof pipeline.id !== 'string')
        throw new ExternalServiceError('CircleCI', 'CircleCI returned no pipeline id');
      return {
        id: pipeline.id,
        number: typeof pipeline.number === 'number' ? pipeline.number : null,
        state: typeof pipeline.state === 'string' ? pipeline.state : 'created',
        createdAt: typeof pipeline.created_at === 'string' ? pipeline.created_at : new Date().toISOString(),
      };
    },

    async pipelineStatus(pipelineId) {
      const statuses: string[] = [];
      let pageToken: string | undefined;
      // Bounded: a pipeline has a handful of workflows; 20 pages is far more than any real one.
      for (let page = 0; page < 20; page += 1) {
        const query = pageToken ? `?page-token=${encodeURIComponent(pageToken)}` : '';
        const result = await call<{ items?: { status?: string }[]; next_page_token?: string | null }>(
          'GET',
          `/api/v2/pipeline/${encodeURIComponent(pipelineId)}/workflow${query}`,
        );
        statuses.push(...(result.items ?? []).map((item) => String(item.status)));
        pageToken = result.next_page_token ?? undefined;
        if (!pageToken) break;
      }
      if (statuses.length > 0) return runStatusFromWorkflows(statuses);
      const pipeline = await call<{ state?: string }>(
        'GET',
        `/api/v2/pipeline/${encodeURIComponent(pipelineId)}`,
      );
      return runStatusFromWorkflows([], pipeline.state);
    },
  };
}
