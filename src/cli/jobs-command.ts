import { parseArgs } from 'node:util';
import { DashboardClient } from '../client/dashboard-client.js';
import { DashboardApiError, DashboardClientError } from '../client/errors.js';
import type { Config } from '../config/config.js';
import type { JobStatus } from '../modules/jobs/jobs.schema.js';

export const JOBS_USAGE = `Usage:
  dashboard jobs list [--json]           the four jobs: schedule, last run and result, next run
  dashboard jobs run <name> [--wait]     start a job now on the API (--wait: until it ends)

The API is reached at API_BASE_URL with DASHBOARD_API_KEY (else API_SECURITY_KEY).`;

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

/** `dashboard jobs …`; resolves with the exit code. Goes through the API like the scheduler. */
export async function jobsCommand(
  args: string[],
  config: Config,
  io: CliOutput,
  pollMs = 500,
): Promise<number> {
  const [sub, ...rest] = args;
  const client = new DashboardClient({ baseUrl: config.apiBaseUrl, apiKey: config.apiKey, retries: 1 });
  try {
    if (sub === 'list') return await list(client, rest, io);
    if (sub === 'run') return await run(client, rest, io, pollMs);
    io.err(JOBS_USAGE);
    return 64;
  } catch (error) {
    if (error instanceof DashboardApiError && error.code === 'NOT_FOUND') {
      io.err(error.message.replace(/^.*?NOT_FOUND: /, ''));
      return 1;
    }
    if (error instanceof DashboardApiError && error.code === 'UNAUTHORIZED') {
      io.err(
        `The API at ${config.apiBaseUrl} refused the key: set DASHBOARD_API_KEY (or API_SECURITY_KEY) to a key of the server`,
      );
      return 77;
    }
    if (error instanceof DashboardApiError && error.code === 'FORBIDDEN') {
      io.err(`${error.serviceMessage}: use an admin key`);
      return 77;
    }
    if (error instanceof DashboardClientError) {
      io.err(`${error.message} (API at ${config.apiBaseUrl}; set API_BASE_URL)`);
      return 69;
    }
    throw error;
  }
}

async function list(client: DashboardClient, args: string[], io: CliOutput): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } } });
  const { data } = await client.jobs.list();
  if (values.json) {
    io.out(JSON.stringify(data, null, 2));
    return 0;
  }
  const rows = [
    ['NAME', 'SCHEDULE', 'LAST RUN', 'RESULT', 'NEXT RUN'],
    ...data.map((job) => [
      job.name,
      job.schedule,
      job.lastRun ?? '-',
      job.lastResult ?? '-',
      job.nextRun ?? '-',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    io.out(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
  io.out(`(times in UTC; schedules in ${data[0]?.timezone ?? 'UTC'})`);
  return 0;
}

async function run(client: DashboardClient, args: string[], io: CliOutput, pollMs: number): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { wait: { type: 'boolean' } },
  });
  const [name] = positionals;
  if (!name || positionals.length > 1) {
    io.err(JOBS_USAGE);
    return 64;
  }
  const accepted = await client.jobs.run(name);
  io.out(`${name}: started (run ${accepted.data.id} at ${accepted.data.startedAt})`);
  if (!values.wait) return 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const job: JobStatus | undefined = (await client.jobs.list()).data.find((entry) => entry.name === name);
    if (!job || job.lastResult === 'running' || job.lastRun !== accepted.data.startedAt) continue;
    const detail = job.lastResult === 'failed' ? `: ${job.lastError ?? 'no detail'}` : '';
    io.out(`${name}: ${job.lastResult} in ${job.lastDurationMs ?? 0} ms${detail}`);
    return job.lastResult === 'success' ? 0 : 1;
  }
}
