import { Type } from '@sinclair/typebox';
import { delays, fraction, integer, list, oneOf, text, url } from './kinds.js';
import { INTEGRATION_VARIABLES, JOB_VARIABLES } from './integration-schema.js';
import { database, roles, routeRateLimits, trustProxy } from './process-kinds.js';

/**
 * Every environment variable the service reads, once: each entry sits where its setting sits in
 * `Config` and carries the variable's name, default, description (the README's table) and parsing.
 * Adding a variable is adding an entry here, or in the integrations' and jobs' part beside this file
 * (docs/configuration.md).
 */
export const ConfigSchema = Type.Object({
  nodeEnv: oneOf(['development', 'production', 'test'], {
    env: 'NODE_ENV',
    default: 'development',
    description: '`production` refuses a missing key, turns on the failed-auth slow-down and strict CORS',
  }),
  host: text({ env: 'HOST', default: '0.0.0.0', description: 'address to listen on' }),
  port: integer({
    env: 'PORT',
    default: 3000,
    maximum: 65535,
    description: 'port to listen on (`0`: any free port)',
  }),
  logLevel: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    env: 'LOG_LEVEL',
    default: 'info',
    description: 'pino level (`silent` … `trace`)',
  }),
  roles: roles({
    env: 'ROLES',
    default: ['api', 'worker', 'scheduler'],
    description: 'roles of this process (also `dashboard serve --roles …`)',
  }),
  apiBaseUrl: url({
    env: 'API_BASE_URL',
    unset: '`http://127.0.0.1:$PORT`',
    description: 'where the scheduler reaches the API',
  }),
  apiKey: text({
    env: 'API_SECURITY_KEY',
    unset: 'generated per run outside production',
    requiredWhen: { env: 'NODE_ENV', is: 'production' },
    description:
      'the admin key (32+ characters recommended; shorter logs a warning); keys of narrower scope are made through `/api/keys`',
  }),
  database: database({
    env: 'DATABASE_URL',
    default: { dialect: 'sqlite', filename: './data/dashboard.sqlite' },
    description: '`sqlite:<path>`, `sqlite::memory:` or `postgres://…`',
  }),
  redisUrl: url({
    env: 'REDIS_URL',
    protocols: ['redis:', 'rediss:'],
    unset: 'unset (in-process broker)',
    description: '`redis://…`: Redis broker, shared brute-force blocks and rate limits',
  }),
  redisNamespace: text({
    env: 'REDIS_NAMESPACE',
    default: '',
    unset: "unset (the spec's exact names)",
    description:
      'prefix of every Redis key and channel (broker, scheduler tick locks, brute-force blocks, rate-limit counts), so that deployments or test runs can share one Redis server',
  }),
  trustProxy: trustProxy({
    env: 'TRUST_PROXY',
    default: false,
    description:
      '`true`, a hop count, or addresses/CIDRs of trusted proxies (otherwise `X-Forwarded-For` is ignored)',
  }),
  corsOrigins: list({
    env: 'CORS_ORIGINS',
    default: [],
    description: 'allowed origins in production (comma list); all origins outside production',
  }),
  externalTimeoutMs: integer({
    env: 'EXTERNAL_TIMEOUT_MS',
    default: 10_000,
    minimum: 1,
    description: 'timeout of every outbound call',
  }),
  requestTimeoutMs: integer({
    env: 'REQUEST_TIMEOUT_MS',
    default: 30_000,
    minimum: 100,
    description:
      'longest time a client may take to send a request (headers and body) or leave a keep-alive connection idle; the connection is then closed',
  }),
  uploadMaxBytes: integer({
    env: 'UPLOAD_MAX_BYTES',
    default: 50 * 1024 * 1024,
    minimum: 1024,
    description:
      'largest test-result upload (`POST /api/test_results`), counted before and after gzip inflation; larger answers 413',
  }),
  auth: Type.Object({
    bruteForceMaxAttempts: integer({
      env: 'BRUTE_FORCE_MAX_ATTEMPTS',
      default: 3,
      minimum: 1,
      description: 'failed-key attempts per IP before a block',
    }),
    bruteForceWindowMs: integer({
      env: 'BRUTE_FORCE_WINDOW_MS',
      default: 900_000,
      minimum: 1,
      description: 'the window in which failed attempts are counted',
    }),
    bruteForceBlockMs: integer({
      env: 'BRUTE_FORCE_BLOCK_MS',
      default: 1_800_000,
      minimum: 1,
      description: 'how long a block lasts',
    }),
    keyCacheMs: integer({
      env: 'API_KEY_CACHE_MS',
      default: 1000,
      maximum: 60_000,
      description:
        'how long a process trusts what it looked up about an API key made through `/api/keys` (revocations also arrive through the broker; `0` asks the database on every request)',
    }),
  }),
  rateLimit: Type.Object({
    max: integer({
      env: 'RATE_LIMIT_MAX',
      default: 600,
      description:
        'per-IP limit on every `/api` request, refused and unknown paths included (`0` turns it off)',
    }),
    windowMs: integer({
      env: 'RATE_LIMIT_WINDOW_MS',
      default: 60_000,
      minimum: 1,
      description: 'the window of `RATE_LIMIT_MAX`',
    }),
    routes: routeRateLimits({
      env: 'RATE_LIMIT_ROUTES',
      default: {},
      description: 'per-route overrides: `"POST /api/pull_requests=60/60000; GET /api/apps=1200/60000"`',
    }),
  }),
  responseCacheTtlMs: integer({
    env: 'RESPONSE_CACHE_TTL_MS',
    default: 10_000,
    description: 'longest life of a cached read answer (`0` turns the response cache off; ETags stay)',
  }),
  reports: Type.Object({
    retryBaseMs: integer({
      env: 'REPORT_RETRY_BASE_MS',
      default: 5000,
      minimum: 1,
      description: 'first wait before a failed report is retried (doubling each time)',
    }),
    visibilityMs: integer({
      env: 'REPORT_VISIBILITY_MS',
      default: 600_000,
      minimum: 1,
      description: 'after this long a report taken by a worker that died is given to another',
    }),
    staleMs: integer({
      env: 'REPORT_STALE_MS',
      default: 300_000,
      minimum: 1,
      description: 'a report pending for longer is queued again',
    }),
    refreshDelayMs: integer({
      env: 'REPORT_REFRESH_DELAY_MS',
      default: 3500,
      maximum: 3_600_000,
      description:
        'how long the reports an upload changes wait for more uploads before they are regenerated (docs/uploads.md)',
    }),
  }),
  verdict: Type.Object({
    publicUrl: url({
      env: 'DASHBOARD_PUBLIC_URL',
      unset: '`API_BASE_URL`',
      description: "the web UI's address, for the run pages linked from pull requests and the CI gate",
    }),
    flakyThreshold: fraction({
      env: 'FLAKY_THRESHOLD',
      default: 0.05,
      description:
        "flake rate on the default branch (14 days, 5 runs or more) from which a failing test is a known flaky one in a run's verdict",
    }),
    feedbackDelayMs: integer({
      env: 'PR_FEEDBACK_DELAY_MS',
      default: 10_000,
      maximum: 3_600_000,
      description:
        'how long a run waits after its last upload before its pull-request feedback is posted (an upload with `final=true` settles it at once)',
    }),
    feedbackRetryDelaysMs: delays({
      env: 'PR_FEEDBACK_RETRY_DELAYS_MS',
      default: [1000, 4000, 16_000],
      description: 'waits before each retry of a GitHub call that answered 5xx or a rate limit (comma list)',
    }),
    feedbackPollMs: integer({
      env: 'PR_FEEDBACK_POLL_MS',
      default: 1000,
      minimum: 10,
      description: 'how often a worker looks for settled runs whose feedback is due',
    }),
  }),
  ...INTEGRATION_VARIABLES,
  ...JOB_VARIABLES,
});
