import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { CliOutput } from './jobs-command.js';

const gzipAsync = promisify(gzip);

export const UPLOAD_USAGE = `Usage:
  dashboard upload FILE... --app CODE [--run N] [--commit SHA] [--branch B] [--author A] [--url URL]

Sends JUnit XML, Playwright JSON or Mochawesome JSON reports of one CI run to the dashboard at
DASHBOARD_URL with DASHBOARD_API_KEY. Without the flags, the run number, commit, branch, author
and run URL are read from GitHub Actions, CircleCI or GitLab CI variables.`;

export interface RunDetails {
  run?: string;
  commit?: string;
  branch?: string;
  author?: string;
  url?: string;
}

const present = (value: string | undefined) =>
  value !== undefined && value.trim() !== '' ? value : undefined;

/** What the CI's own variables say about the run (GitHub Actions, CircleCI, GitLab CI). */
export function runFromCi(env: NodeJS.ProcessEnv): RunDetails {
  if (env.GITHUB_ACTIONS === 'true') {
    const server = present(env.GITHUB_SERVER_URL) ?? 'https://github.com';
    return {
      run: present(env.GITHUB_RUN_NUMBER),
      commit: present(env.GITHUB_SHA),
      // A pull request's own branch, else the branch or tag that was pushed.
      branch: present(env.GITHUB_HEAD_REF) ?? present(env.GITHUB_REF_NAME),
      author: present(env.GITHUB_ACTOR),
      url:
        present(env.GITHUB_REPOSITORY) && present(env.GITHUB_RUN_ID)
          ? `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
          : undefined,
    };
  }
  if (env.CIRCLECI === 'true') {
    return {
      run: present(env.CIRCLE_BUILD_NUM),
      commit: present(env.CIRCLE_SHA1),
      branch: present(env.CIRCLE_BRANCH),
      author: present(env.CIRCLE_USERNAME),
      url: present(env.CIRCLE_BUILD_URL),
    };
  }
  if (env.GITLAB_CI === 'true') {
    return {
      run: present(env.CI_PIPELINE_IID),
      commit: present(env.CI_COMMIT_SHA),
      branch: present(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME) ?? present(env.CI_COMMIT_REF_NAME),
      author: present(env.GITLAB_USER_NAME) ?? present(env.GITLAB_USER_LOGIN),
      url: present(env.CI_PIPELINE_URL),
    };
  }
  return {};
}

/** The Content-Type of a report file: by its extension, else by its first character. */
export function contentTypeOf(file: string, content: Buffer): string {
  const extension = extname(file).toLowerCase();
  if (extension === '.xml') return 'application/xml';
  if (extension === '.json') return 'application/json';
  const first = content.toString('utf8', 0, Math.min(content.length, 512)).trimStart()[0];
  return first === '<' ? 'application/xml' : 'application/json';
}

interface UploadAnswer {
  success?: boolean;
  data?: {
    id: number;
    runNumber: number;
    format: string;
    tests: number;
    passed: number;
    failed: number;
    flaky: number;
    skipped: number;
  };
  error?: { message?: string; code?: string; details?: { message?: string }[] } | string;
}

function describeFailure(status: number, answer: UploadAnswer | undefined): string {
  const error = answer?.error;
  if (typeof error === 'string') return `${status} ${error}`;
  if (!error) return `HTTP ${status}`;
  const details = (error.details ?? []).map((detail) => detail.message).filter(Boolean);
  return `${status} ${error.code ?? ''}: ${error.message ?? ''}${details.length ? ` (${details.join('; ')})` : ''}`;
}

/**
 * `dashboard upload FILE...`: one POST /api/test_results per file (gzipped on the wire), one line
 * per file; resolves with the exit code (1 when any upload failed, 64 for a usage error).
 */
export async function uploadCommand(args: string[], env: NodeJS.ProcessEnv, io: CliOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        app: { type: 'string' },
        run: { type: 'string' },
        commit: { type: 'string' },
        branch: { type: 'string' },
        author: { type: 'string' },
        url: { type: 'string' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${UPLOAD_USAGE}`);
    return 64;
  }
  const { values, positionals: files } = parsed;
  const baseUrl = present(env.DASHBOARD_URL)?.replace(/\/+$/, '');
  const apiKey = present(env.DASHBOARD_API_KEY);
  const ci = runFromCi(env);
  const run = values.run ?? ci.run;
  const problems = [
    files.length === 0 ? 'no report file given' : undefined,
    values.app ? undefined : '--app is required',
    run ? undefined : '--run is required outside GitHub Actions, CircleCI and GitLab CI',
    baseUrl ? undefined : 'DASHBOARD_URL is not set',
    apiKey ? undefined : 'DASHBOARD_API_KEY is not set',
  ].filter((problem) => problem !== undefined);
  if (problems.length > 0) {
    io.err(`${problems.join('; ')}\n${UPLOAD_USAGE}`);
    return 64;
  }
  const query = new URLSearchParams({ app: values.app!, run: run! });
  const extra: [string, string | undefined][] = [
    ['commit', values.commit ?? ci.commit],
    ['branch', values.branch ?? ci.branch],
    ['author', values.author ?? ci.author],
    ['runUrl', values.url ?? ci.url],
  ];
  for (const [name, value] of extra) if (value !== undefined) query.set(name, value);

  let failures = 0;
  for (const file of files) {
    try {
      const content = await readFile(file);
      const response = await fetch(`${baseUrl}/api/test_results?${query.toString()}`, {
        method: 'POST',
        headers: {
          'x-api-key': apiKey!,
          'content-type': contentTypeOf(file, content),
          'content-encoding': 'gzip',
        },
        body: await gzipAsync(content),
      });
      const answer = (await response.json().catch(() => undefined)) as UploadAnswer | undefined;
      const data = answer?.data;
      if (!response.ok || !data) {
        failures += 1;
        io.err(`${file}: upload failed: ${describeFailure(response.status, answer)}`);
        continue;
      }
      const state = response.status === 201 ? 'uploaded' : 'already uploaded';
      io.out(
        `${basename(file)}: ${state} as #${data.id} (${data.format}, run ${data.runNumber}): ${data.tests} tests, ` +
          `${data.passed} passed, ${data.failed} failed, ${data.flaky} flaky, ${data.skipped} skipped`,
      );
    } catch (error) {
      failures += 1;
      io.err(`${file}: upload failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return failures > 0 ? 1 : 0;
}
