import { createServer, type ServerResponse } from 'node:http';
import { listenOnLoopback, sendJson } from './fake-http.js';

/** A `spec-details` row as the Cypress Cloud enterprise reporting API exports it. */
export interface FakeSpecRow {
  project_name: string;
  run_number: number | null;
  created_at: string;
  status: string;
  spec: string;
  total_tests: number;
  pass_tests: number;
  fail_tests: number;
  flaky_tests: number;
  /** Milliseconds the spec took (absent or null on some rows of the real export). */
  spec_duration?: number | null;
  commit_author_name?: string | null;
  commit_branch?: string | null;
  /** The run's commit and its page on Cypress Cloud. */
  commit_sha?: string | null;
  run_url?: string | null;
  /** Older fixtures' branch field; `commit_branch` is the export's name for it. */
  branch?: string;
  [extra: string]: unknown;
}

export interface FakeCypressRequest {
  query: URLSearchParams;
  projects: string[];
  status: number;
  /** Epoch ms when the request arrived. */
  at: number;
}

/**
 * The Cypress Cloud enterprise reporting endpoint for tests, on 127.0.0.1:
 * `GET /enterprise-reporting/report?report_id=spec-details&token=…&export_format=json&start_date=…
 * &end_date=…[&branch=…]&projects=…` answering a JSON array of the rows of the requested projects
 * (created within the dates, on the branch when given). Rows are written as a stream with
 * back-pressure so a generated answer of hundreds of megabytes never sits in memory.
 */
export interface FakeCypress {
  /** The report endpoint (the value of CYPRESS_BASE_URL). */
  readonly url: string;
  readonly requests: FakeCypressRequest[];
  rows: FakeSpecRow[];
  /** Replaces `rows`: a generator producing the rows of an answer (large answers). */
  rowSource: ((projects: string[]) => Iterable<FakeSpecRow>) | undefined;
  /** Statuses answered, in order, by the next requests (then normal answers resume). */
  failures: number[];
  /** When set, the body of those failures, as plain text (an upstream error page, say). */
  failureText: string | undefined;
  /** The next N requests are never answered (timeouts). */
  hangs: number;
  /** Delay before answering, in ms. */
  delayMs: number;
  /** Most requests ever being answered at the same time. */
  readonly maxConcurrent: number;
  /** The same, per `end_date` asked (a report's date): what a lock per date must keep at 1. */
  readonly maxConcurrentByEndDate: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** Writes `[row,row,…]`, waiting for 'drain' whenever the socket buffer is full. */
async function streamRows(res: ServerResponse, rows: Iterable<FakeSpecRow>): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  let first = true;
  let buffer = '[';
  for (const row of rows) {
    buffer += (first ? '' : ',') + JSON.stringify(row);
    first = false;
    if (buffer.length >= 64 * 1024) {
      if (!res.write(buffer)) await new Promise((resolve) => res.once('drain', resolve));
      buffer = '';
      if (res.destroyed) return;
    }
  }
  res.end(`${buffer}]`);
}

export async function startFakeCypress(options: { apiKey?: string } = {}): Promise<FakeCypress> {
  const hanging = new Set<ServerResponse>();
  const state: Omit<FakeCypress, 'url' | 'close'> = {
    requests: [],
    rows: [],
    rowSource: undefined,
    failures: [],
    failureText: undefined,
    hangs: 0,
    delayMs: 0,
    maxConcurrent: 0,
    maxConcurrentByEndDate: new Map<string, number>(),
  };
  let active = 0;
  const activeByEndDate = new Map<string, number>();

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = url.searchParams;
    const projects = query.getAll('projects');
    const at = Date.now();
    const record = (status: number) => state.requests.push({ query, projects, status, at });

    const answer = async () => {
      if (state.hangs > 0) {
        state.hangs -= 1;
        record(0);
        hanging.add(res);
        return;
      }
      if (req.method !== 'GET' || url.pathname !== '/enterprise-reporting/report') {
        record(404);
        return sendJson(res, 404, { error: 'Not found' });
      }
      if (options.apiKey !== undefined && query.get('token') !== options.apiKey) {
        record(401);
        return sendJson(res, 401, { error: 'Invalid or missing token' });
      }
      const failure = state.failures.shift();
      if (failure !== undefined) {
        record(failure);
        if (state.failureText !== undefined) {
          res.writeHead(failure, { 'content-type': 'text/plain' });
          return res.end(state.failureText);
        }
        return sendJson(res, failure, { error: `Simulated failure ${failure}` });
      }
      const missing = ['report_id', 'export_format', 'start_date', 'end_date'].filter(
        (name) => !query.get(name),
      );
      if (missing.length > 0 || query.get('report_id') !== 'spec-details' || projects.length === 0) {
        record(400);
        return sendJson(res, 400, { error: `Bad request: ${missing.join(', ') || 'report_id or projects'}` });
      }
      record(200);
      const start = query.get('start_date')!;
      const end = query.get('end_date')!;
      const branch = query.get('branch');
      const wanted = new Set(projects);
      const rows = state.rowSource
        ? state.rowSource(projects)
        : state.rows.filter((row) => {
            const day = row.created_at.slice(0, 10);
            return (
              wanted.has(row.project_name) &&
              day >= start &&
              day <= end &&
              (!branch ||
                (row.commit_branch ?? row.branch ?? undefined) === undefined ||
                (row.commit_branch ?? row.branch) === branch)
            );
          });
      await streamRows(res, rows);
    };

    active += 1;
    (state as { maxConcurrent: number }).maxConcurrent = Math.max(state.maxConcurrent, active);
    const endDate = query.get('end_date') ?? '';
    const activeForDate = (activeByEndDate.get(endDate) ?? 0) + 1;
    activeByEndDate.set(endDate, activeForDate);
    const byDate = state.maxConcurrentByEndDate as Map<string, number>;
    byDate.set(endDate, Math.max(byDate.get(endDate) ?? 0, activeForDate));
    res.once('close', () => {
      active -= 1;
      activeByEndDate.set(endDate, activeByEndDate.get(endDate)! - 1);
    });
    setTimeout(() => {
      answer().catch(() => res.destroy());
    }, state.delayMs);
  });

  const listening = await listenOnLoopback(server);

  const fake = state as FakeCypress;
  Object.assign(fake, {
    url: `${listening.origin}/enterprise-reporting/report`,
    close: async () => {
      for (const res of hanging) res.destroy();
      await listening.close();
    },
  });
  return fake;
}
