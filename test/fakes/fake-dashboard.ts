import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { listenOnLoopback, noFaults, sendJson } from './fake-http.js';

/**
 * A stand-in for the dashboard's upload API (`POST /api/test_results`, `POST /api/apps`) over real
 * HTTP on 127.0.0.1, recording every request exactly as it arrived, for tests of what the CLI
 * sends. It answers with the service's shapes: the flat 401, the error envelope for 404 and 409,
 * and an upload with `attempt`, `status` and `errors` (a Playwright report with top-level errors
 * and no test is a crashed run, as on the real service).
 */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string as name → value (each name once). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The body as received (still gzipped when it was sent gzipped). */
  body: Buffer;
  /** The body after undoing its content-encoding. */
  text: string;
}

export interface CreatedApp {
  id: number;
  name: string;
  code: string;
  pipelineUrl: string;
  repositoryUrl: string | null;
  watching: boolean;
}

export async function startFakeDashboard(options: { apiKey: string; apps?: string[] }) {
  const requests: RecordedRequest[] = [];
  const apps = new Map<string, CreatedApp>();
  const stored = new Map<string, number>();
  const faults = noFaults();
  let nextId = 1;
  for (const code of options.apps ?? [])
    apps.set(code, appRecord(nextId++, code, code, 'https://ci.example.com'));

  const server = createServer((req, res) => {
    void record(req).then((request) => {
      requests.push(request);
      if (faults.hang) return;
      if (request.headers['x-api-key'] !== options.apiKey) {
        sendJson(res, 401, { success: false, error: 'Invalid or missing API key', code: 'UNAUTHORIZED' });
        return;
      }
      if (request.method === 'POST' && request.path === '/api/apps') {
        const body = JSON.parse(request.text) as Omit<CreatedApp, 'id'>;
        if (apps.has(body.code)) {
          sendJson(res, 409, envelope('CONFLICT', `An application with code "${body.code}" already exists`));
          return;
        }
        const app = { ...appRecord(nextId++, body.name, body.code, body.pipelineUrl), ...body };
        apps.set(app.code, app);
        sendJson(res, 201, { success: true, data: app });
        return;
      }
      if (request.method === 'POST' && request.path === '/api/test_results') {
        const app = apps.get(request.query.app ?? '');
        if (!app) {
          sendJson(res, 404, envelope('NOT_FOUND', `Application with code "${request.query.app}" not found`));
          return;
        }
        const key = `${app.code}/${request.query.run}/${createHash('sha256').update(request.text).digest('hex')}`;
        const repeat = stored.has(key);
        if (!repeat) stored.set(key, nextId++);
        sendJson(res, repeat ? 200 : 201, { success: true, data: uploadOf(stored.get(key)!, app, request) });
        return;
      }
      sendJson(res, 404, envelope('NOT_FOUND', `Route ${request.method} ${request.path} not found`));
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    baseUrl: listening.origin,
    requests,
    apps,
    faults,
    /** The upload requests only. */
    uploads: () => requests.filter((request) => request.path === '/api/test_results'),
    close: listening.close,
  };
}

export type FakeDashboard = Awaited<ReturnType<typeof startFakeDashboard>>;

async function record(req: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const url = new URL(req.url ?? '/', 'http://fake');
  const gzipped = req.headers['content-encoding'] === 'gzip';
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body,
    text: (gzipped ? gunzipSync(body) : body).toString('utf8'),
  };
}

const envelope = (code: string, message: string) => ({ success: false, error: { code, message } });

function appRecord(id: number, name: string, code: string, pipelineUrl: string): CreatedApp {
  return { id, name, code, pipelineUrl, repositoryUrl: null, watching: true };
}

interface PlaywrightShape {
  suites?: unknown[];
  errors?: { message?: string; stack?: string }[];
}

function uploadOf(id: number, app: CreatedApp, request: RecordedRequest) {
  const xml = request.headers['content-type']?.includes('xml') ?? false;
  const tests = xml ? (request.text.match(/<testcase\b/g) ?? []).length : 0;
  const report = xml ? {} : (JSON.parse(request.text) as PlaywrightShape);
  const crashed = (report.errors?.length ?? 0) > 0 && (report.suites?.length ?? 0) === 0;
  return {
    id,
    appId: app.id,
    runNumber: Number(request.query.run),
    attempt: Number(request.query.attempt ?? 1),
    format: xml ? 'junit' : 'playwright',
    specs: 0,
    tests,
    passed: tests,
    failed: 0,
    flaky: 0,
    skipped: 0,
    status: crashed ? 'errored' : 'ok',
    errors: crashed
      ? report.errors!.map((error) => ({ message: error.message ?? '', stack: error.stack ?? '' }))
      : [],
    createdAt: new Date().toISOString(),
  };
}
