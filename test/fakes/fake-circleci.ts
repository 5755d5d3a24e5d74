import { randomUUID } from 'node:crypto';
import { type FakeFaults, listenOnLoopback, noFaults, sendJson } from './fake-http.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A CircleCI API v2 server for tests, on 127.0.0.1: pipeline trigger
 * (`POST /api/v2/project/{slug}/pipeline`), pipeline and workflow reads with `next_page_token`
 * paging, the `Circle-Token` header, and CircleCI's `{message}` error bodies.
 */
export interface FakePipeline {
  id: string;
  number: number;
  slug: string;
  branch: string | undefined;
  parameters: Record<string, unknown> | undefined;
  state: string;
  workflows: string[];
}

export interface FakeCircleCi extends FakeFaults {
  readonly url: string;
  readonly pipelines: FakePipeline[];
  readonly requests: { method: string; path: string; headers: IncomingMessage['headers']; status: number }[];
  /** Projects that exist; triggering another slug answers 404. */
  addProject(slug: string): void;
  /** Sets the workflow statuses of a pipeline (`[]` = none yet). */
  setWorkflows(pipelineId: string, statuses: string[]): void;
  workflowPageSize: number;
  close(): Promise<void>;
}

export async function startFakeCircleCi(token: string): Promise<FakeCircleCi> {
  const projects = new Set<string>();
  const pipelines: FakePipeline[] = [];
  const requests: FakeCircleCi['requests'] = [];
  const state = { workflowPageSize: 2, ...noFaults() };
  let nextNumber = 100;

  const handle = (req: IncomingMessage, res: ServerResponse, url: URL, raw: string): number | undefined => {
    if (state.hang) return undefined;
    if (req.headers['circle-token'] !== token) {
      sendJson(res, 401, { message: 'Invalid token provided.' });
      return 401;
    }
    if (state.failWith !== undefined) {
      sendJson(res, state.failWith, { message: 'Internal server error' });
      return state.failWith;
    }
    const trigger = /^\/api\/v2\/project\/([^/]+\/[^/]+\/[^/]+)\/pipeline$/.exec(url.pathname);
    if (trigger && req.method === 'POST') {
      const slug = trigger[1]!.split('/').map(decodeURIComponent).join('/');
      if (!projects.has(slug)) {
        sendJson(res, 404, { message: 'Project not found' });
        return 404;
      }
      let body: { branch?: unknown; parameters?: unknown };
      try {
        body = raw === '' ? {} : (JSON.parse(raw) as typeof body);
      } catch {
        sendJson(res, 400, { message: 'Invalid JSON body.' });
        return 400;
      }
      const pipeline: FakePipeline = {
        id: randomUUID(),
        number: (nextNumber += 1),
        slug,
        branch: typeof body.branch === 'string' ? body.branch : undefined,
        parameters: body.parameters as Record<string, unknown> | undefined,
        state: 'created',
        workflows: [],
      };
      pipelines.push(pipeline);
      sendJson(res, 201, {
        id: pipeline.id,
        state: pipeline.state,
        number: pipeline.number,
        created_at: new Date().toISOString(),
      });
      return 201;
    }
    const read = /^\/api\/v2\/pipeline\/([^/]+)(\/workflow)?$/.exec(url.pathname);
    const pipeline = read
      ? pipelines.find((candidate) => candidate.id === decodeURIComponent(read[1]!))
      : undefined;
    if (!read || req.method !== 'GET') {
      sendJson(res, 404, { message: 'Not found.' });
      return 404;
    }
    if (!pipeline) {
      sendJson(res, 404, { message: 'Pipeline not found.' });
      return 404;
    }
    if (!read[2]) {
      sendJson(res, 200, {
        id: pipeline.id,
        number: pipeline.number,
        project_slug: pipeline.slug,
        state: pipeline.state,
        errors: [],
      });
      return 200;
    }
    const start = Number(url.searchParams.get('page-token') ?? 0);
    const items = pipeline.workflows.slice(start, start + state.workflowPageSize).map((status, index) => ({
      id: `${pipeline.id}-wf-${start + index}`,
      name: `workflow-${start + index}`,
      pipeline_id: pipeline.id,
      pipeline_number: pipeline.number,
      project_slug: pipeline.slug,
      status,
    }));
    const next = start + state.workflowPageSize;
    sendJson(res, 200, { items, next_page_token: next < pipeline.workflows.length ? String(next) : null });
    return 200;
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const status = handle(req, res, url, raw);
      requests.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        headers: req.headers,
        status: status ?? 0,
      });
    });
  });
  const { origin, close } = await listenOnLoopback(server);

  // The state object itself is returned, so tests switch faults and settings by assignment.
  return Object.assign(state, {
    url: origin,
    pipelines,
    requests,
    addProject: (slug) => void projects.add(slug),
    setWorkflows(pipelineId, statuses) {
      const pipeline = pipelines.find((candidate) => candidate.id === pipelineId);
      if (!pipeline) throw new Error(`no pipeline ${pipelineId}`);
      pipeline.workflows = statuses;
      if (statuses.length > 0) pipeline.state = 'created';
    },
    close,
  } satisfies Omit<FakeCircleCi, keyof typeof state>);
}
