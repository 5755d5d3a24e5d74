import { DashboardClient } from '../client/dashboard-client.js';
import { DashboardApiError } from '../client/errors.js';
import type { RawBody } from '../client/transport.js';
import type { CliOutput } from './jobs-command.js';
import { filesOwnExitCode, type GateClass, type GateVerdict, gateExitCode, printVerdict } from './gate.js';
import { prepareReport } from './report-file.js';
import {
  blockedWarning,
  crashWarning,
  describeApiError,
  summaryLine,
  UNAUTHORIZED_WARNING,
  unknownAppHint,
  unreachableMessage,
  type UploadAnswer,
} from './upload-messages.js';
import { planUpload, UPLOAD_USAGE, type UploadPlan } from './upload-options.js';

export { runFromCi, type RunDetails } from './ci-environment.js';
export { contentTypeOf } from './report-file.js';
export { UPLOAD_USAGE } from './upload-options.js';

/** What became of one file: stored, not stored, or not stored and no other file should be tried. */
type FileOutcome = 'stored' | 'failed' | 'stop';

/**
 * `dashboard upload FILE...`: one POST /api/test_results per file (gzipped on the wire), one line
 * per file; resolves with the exit code (0 when every file was stored, 1 when one was not or the
 * dashboard cannot be reached, 64 for a usage error).
 */
export async function uploadCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  io: CliOutput,
  cwd = process.cwd(),
): Promise<number> {
  const planned = await planUpload(args, env, cwd);
  if (planned.kind === 'help') {
    io.out(UPLOAD_USAGE);
    return 0;
  }
  if (planned.kind === 'usage') {
    io.err(`${planned.message}\n${UPLOAD_USAGE}`);
    return 64;
  }
  const uploader = createUploader(planned.plan, io);
  let failures = 0;
  for (const file of planned.plan.files) {
    const outcome = await uploader.uploadFile(file);
    if (outcome === 'stored') continue;
    failures += 1;
    // The dashboard is unreachable, or refuses the key: every other file would fail the same way
    // (and each refused key brings the address closer to a block).
    if (outcome === 'stop') break;
  }
  if (planned.plan.gate) return runGate(planned.plan, planned.plan.gate.failOn, uploader.state, failures, io);
  return failures > 0 ? 1 : 0;
}

/**
 * `--gate`: the run's verdict decides the exit code. When the dashboard cannot be reached or
 * answers 5xx (for an upload or the verdict), the files' own verdict does, said on stderr.
 */
async function runGate(
  plan: UploadPlan,
  failOn: GateClass[],
  state: UploaderState,
  failures: number,
  io: CliOutput,
): Promise<number> {
  const fallBack = async (why: string) => {
    io.err(`${why}: the gate exits with the files' own verdict (1 when a test failed)`);
    return filesOwnExitCode(plan.files);
  };
  if (state.down) return fallBack('the dashboard could not be reached or failed');
  if (failures > 0 || state.appId === undefined) return 1;
  const url = `${plan.baseUrl}/api/apps/${state.appId}/runs/${plan.query.run}/verdict`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { 'x-api-key': plan.apiKey, accept: 'application/json' },
      signal: AbortSignal.timeout(plan.timeoutMs),
    });
  } catch {
    return fallBack(`cannot reach the dashboard at ${plan.baseUrl} for the verdict`);
  }
  if (response.status >= 500) return fallBack(`the dashboard answered ${response.status} for the verdict`);
  if (!response.ok) {
    io.err(
      `the dashboard refused the verdict (${response.status}): ${(await response.text()).slice(0, 300)}`,
    );
    return 1;
  }
  const { data } = (await response.json()) as { data: GateVerdict };
  printVerdict(data, failOn, io);
  return gateExitCode(data, failOn);
}

interface UploaderState {
  /** The dashboard could not be reached or answered 5xx. */
  down: boolean;
  /** The app's id, from a stored upload's answer. */
  appId: number | undefined;
}

function createUploader(plan: UploadPlan, io: CliOutput) {
  const client = new DashboardClient({
    baseUrl: plan.baseUrl,
    apiKey: plan.apiKey,
    timeoutMs: plan.timeoutMs,
    retries: 2,
  });
  let appCreation: 'not tried' | 'created' | 'failed' = 'not tried';
  const state: UploaderState = { down: false, appId: undefined };

  async function send(report: RawBody): Promise<{ created: boolean; data: UploadAnswer }> {
    try {
      return await client.testResults.upload(report, plan.query);
    } catch (error) {
      const appMissing = error instanceof DashboardApiError && error.status === 404;
      if (!appMissing || plan.createAppName === undefined || appCreation !== 'not tried') throw error;
      appCreation = (await createApp(client, plan, io)) ? 'created' : 'failed';
      if (appCreation === 'failed') throw error;
      return await client.testResults.upload(report, plan.query);
    }
  }

  function reportFailure(file: string, error: unknown): FileOutcome {
    const unreachable = unreachableMessage(plan.baseUrl, error);
    if (unreachable !== undefined) {
      state.down = true;
      io.err(unreachable);
      return 'stop';
    }
    if (!(error instanceof DashboardApiError)) {
      io.err(`${file}: upload failed: ${error instanceof Error ? error.message : String(error)}`);
      return 'failed';
    }
    if (error.status >= 500) state.down = true;
    const hint = error.status === 404 && plan.createAppName === undefined ? unknownAppHint(error) : '';
    io.err(`${file}: upload failed: ${describeApiError(error)}${hint}`);
    if (error.status === 401) io.err(UNAUTHORIZED_WARNING);
    if (error.status === 429) io.err(blockedWarning(error));
    return error.status === 401 || error.status === 429 ? 'stop' : 'failed';
  }

  async function uploadFile(file: string): Promise<FileOutcome> {
    try {
      const report = await prepareReport(file);
      const { created, data } = await send({
        data: report.body,
        contentType: report.contentType,
        contentEncoding: 'gzip',
      });
      io.out(summaryLine(file, created, data));
      state.appId = data.appId;
      const warning = crashWarning(data);
      // The file was stored: a crashed run is news, not a failed upload.
      if (warning !== undefined) io.err(warning);
      return 'stored';
    } catch (error) {
      return reportFailure(file, error);
    }
  }

  return { uploadFile, state };
}

/**
 * Creates the app named by --create-app (code from --app), watched, with the CI's repository page
 * as its pipeline and repository URL. Resolves false (having said why) when it cannot.
 */
async function createApp(client: DashboardClient, plan: UploadPlan, io: CliOutput): Promise<boolean> {
  const name = plan.createAppName!;
  const url = plan.repositoryUrl;
  if (url === undefined) {
    io.err(
      `cannot create app "${name}": its pipeline URL comes from the CI's repository URL ` +
        '(GITHUB_SERVER_URL/GITHUB_REPOSITORY, CIRCLE_REPOSITORY_URL or CI_PROJECT_URL), and none is set',
    );
    return false;
  }
  try {
    const { data } = await client.apps.create({
      name,
      code: plan.query.app,
      pipelineUrl: url,
      repositoryUrl: url,
      watching: true,
    });
    io.out(`created app "${data.name}" (code ${data.code}, #${data.id}, ${url})`);
    return true;
  } catch (error) {
    // Another shard's upload created it a moment ago: it exists, which is all the upload needs.
    if (error instanceof DashboardApiError && error.status === 409) return true;
    if (!(error instanceof DashboardApiError)) throw error;
    io.err(`cannot create app "${name}": ${describeApiError(error)}`);
    return false;
  }
}
