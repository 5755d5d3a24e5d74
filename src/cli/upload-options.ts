import { parseArgs } from 'node:util';
import { absoluteRoot, present, runFromCi } from './ci-environment.js';
import { commitAuthor } from './commit-author.js';
import { type GateClass, parseFailOn } from './gate.js';

export const UPLOAD_USAGE = `Usage:
  dashboard upload FILE... --app CODE [options]

Sends JUnit XML, Playwright JSON or Mochawesome JSON reports (plain or gzipped) of one CI run to
the dashboard at DASHBOARD_URL with DASHBOARD_API_KEY, one line per file. Exits 1 when a file
was not stored or the dashboard cannot be reached.

Options (each defaults to what GitHub Actions, CircleCI or GitLab CI say about the run):
  --app CODE            the application's code (required)
  --run N               the CI run number (GITHUB_RUN_NUMBER, CIRCLE_BUILD_NUM, CI_PIPELINE_IID)
  --attempt N           the re-run attempt of that run (GITHUB_RUN_ATTEMPT; the server assumes 1)
  --commit SHA          the commit tested (GITHUB_SHA, CIRCLE_SHA1, CI_COMMIT_SHA)
  --branch NAME         its branch (GITHUB_HEAD_REF or GITHUB_REF_NAME, CIRCLE_BRANCH,
                        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME or CI_COMMIT_REF_NAME)
  --author NAME         the commit's author (git log of the commit in this checkout, else
                        GITHUB_EVENT_PATH's head commit author or pull request author)
  --triggered-by NAME   who started the run (GITHUB_ACTOR, CIRCLE_USERNAME, GITLAB_USER_LOGIN)
  --url URL             the run's page (GitHub's run URL, CIRCLE_BUILD_URL, CI_PIPELINE_URL)
  --root DIR            the checkout: report paths under it are stored relative to it
                        (GITHUB_WORKSPACE, CIRCLE_WORKING_DIRECTORY, CI_PROJECT_DIR, else here)
  --create-app NAME     create the app named NAME (code from --app, watched, its pipeline and
                        repository URL from GITHUB_SERVER_URL/GITHUB_REPOSITORY,
                        CIRCLE_REPOSITORY_URL or CI_PROJECT_URL) when it does not exist yet;
                        an existing app is left as it is
  --timeout SECONDS     how long to wait for each answer (default 60)
  --gate                marks the uploads final, reads the run's verdict and prints it by class
                        with a link to the run page; exits 1 when a failure is in a --fail-on
                        class or the run errored, else 0. When the dashboard cannot be reached or
                        answers 5xx, exits with the files' own verdict (1 if any test failed)
  --fail-on CLASSES     with --gate: comma list of new, failing_on_default_branch, known_flaky
                        (default new)
  -h, --help            this text`;

/** Everything one `dashboard upload` needs, read from the flags and the environment. */
export interface UploadPlan {
  files: string[];
  baseUrl: string;
  apiKey: string;
  /** The upload's query string: app, run and whatever else is known. */
  query: { app: string; run: string } & Record<string, string>;
  createAppName?: string;
  repositoryUrl?: string;
  timeoutMs: number;
  /** `--gate`: the verdict decides the exit code, failing on these classes. */
  gate?: { failOn: GateClass[] };
}

export type PlanResult =
  { kind: 'plan'; plan: UploadPlan } | { kind: 'help' } | { kind: 'usage'; message: string };

const POSITIVE_INTEGER = /^[1-9]\d{0,9}$/;

const OPTIONS = {
  app: { type: 'string' },
  run: { type: 'string' },
  attempt: { type: 'string' },
  commit: { type: 'string' },
  branch: { type: 'string' },
  author: { type: 'string' },
  'triggered-by': { type: 'string' },
  url: { type: 'string' },
  root: { type: 'string' },
  'create-app': { type: 'string' },
  timeout: { type: 'string' },
  gate: { type: 'boolean' },
  'fail-on': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Reads the flags, the CI's variables and the checkout into an upload plan (or a usage error). */
export async function planUpload(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<PlanResult> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return { kind: 'usage', message: (error as Error).message };
  }
  const { values, positionals: files } = parsed;
  if (values.help) return { kind: 'help' };
  const baseUrl = present(env.DASHBOARD_URL)?.trim().replace(/\/+$/, '');
  const apiKey = present(env.DASHBOARD_API_KEY);
  const ci = runFromCi(env);
  const run = values.run ?? ci.run;
  const timeout = values.timeout ?? '60';
  const failOn = parseFailOn(values['fail-on']);
  const problems = [
    files.length === 0 ? 'no report file given' : undefined,
    values.app ? undefined : '--app is required',
    run ? undefined : '--run is required outside GitHub Actions, CircleCI and GitLab CI',
    values.attempt === undefined || POSITIVE_INTEGER.test(values.attempt)
      ? undefined
      : '--attempt must be a positive integer',
    values['create-app'] === undefined || present(values['create-app'])
      ? undefined
      : '--create-app needs the new application name',
    Number(timeout) > 0 ? undefined : '--timeout must be a positive number of seconds',
    baseUrl ? undefined : 'DASHBOARD_URL is not set',
    baseUrl && !/^https?:\/\/[^/]/i.test(baseUrl) ? 'DASHBOARD_URL must be an http(s) URL' : undefined,
    apiKey ? undefined : 'DASHBOARD_API_KEY is not set',
    typeof failOn === 'string' ? failOn : undefined,
    values['fail-on'] !== undefined && !values.gate ? '--fail-on needs --gate' : undefined,
  ].filter((problem) => problem !== undefined);
  if (problems.length > 0) return { kind: 'usage', message: problems.join('; ') };

  const commit = values.commit ?? ci.commit;
  const envAttempt = ci.attempt !== undefined && POSITIVE_INTEGER.test(ci.attempt) ? ci.attempt : undefined;
  const known: [string, string | undefined][] = [
    ['attempt', values.attempt ?? envAttempt],
    ['commit', commit],
    ['branch', values.branch ?? ci.branch],
    // The commit's author is only looked up (git, the event file) when no flag names it.
    ['author', values.author ?? (await commitAuthor(commit, env, cwd))],
    ['triggeredBy', values['triggered-by'] ?? ci.triggeredBy],
    ['runUrl', values.url ?? ci.url],
    ['root', absoluteRoot(values.root ?? ci.root, cwd)],
  ];
  const query: UploadPlan['query'] = { app: values.app!, run: run! };
  for (const [name, value] of known) if (value !== undefined && value !== '') query[name] = value;
  if (values.gate) query.final = 'true';
  return {
    kind: 'plan',
    plan: {
      files,
      baseUrl: baseUrl!,
      apiKey: apiKey!,
      query,
      createAppName: values['create-app'],
      repositoryUrl: ci.repositoryUrl,
      timeoutMs: Math.ceil(Number(timeout) * 1000),
      ...(values.gate && typeof failOn !== 'string' ? { gate: { failOn } } : {}),
    },
  };
}
