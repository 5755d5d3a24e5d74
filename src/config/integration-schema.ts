import { Type } from '@sinclair/typebox';
import { cron, delays, flag, integer, text, timezone, url } from './kinds.js';

/**
 * The variables of the services this one calls (test results, source control, tracker, CI, push,
 * webhooks); part of `ConfigSchema` (schema.ts), kept apart only to keep each file short.
 */
export const INTEGRATION_VARIABLES = {
  cypress: Type.Object({
    baseUrl: url({
      env: 'CYPRESS_BASE_URL',
      default: 'https://cloud.cypress.io/enterprise-reporting/report',
      description: 'Cypress Cloud reporting endpoint: the test-results source',
    }),
    apiKey: text({
      env: 'CYPRESS_API_KEY',
      description: 'Cypress Cloud API key (without one, requests go out without a token)',
    }),
    branch: text({
      env: 'CYPRESS_BRANCH',
      description: 'branch filter of the test-results query (every branch when unset)',
    }),
  }),
  github: Type.Object({
    apiUrl: url({
      env: 'GITHUB_URL',
      default: 'https://api.github.com',
      description: 'source-control API (GitHub Enterprise: `https://ghe.example.com/api/v3`)',
    }),
    token: text({
      env: 'GITHUB_TOKEN',
      description:
        'GitHub token (without one, GitHub is read anonymously: public repositories, 60 requests/hour)',
    }),
  }),
  jira: Type.Object({
    baseUrl: url({
      env: 'JIRA_BASE_URL',
      description: 'Jira Cloud address; with `JIRA_EMAIL` and `JIRA_API_TOKEN`, turns the tracker on',
    }),
    email: text({ env: 'JIRA_EMAIL', description: 'Jira account e-mail' }),
    apiToken: text({ env: 'JIRA_API_TOKEN', description: 'Jira API token' }),
    manualQaProject: text({
      env: 'JIRA_MANUAL_QA_PROJECT',
      description: 'project of the manual QA tickets (`manual_qa` query)',
    }),
    cacheMs: integer({
      env: 'TRACKER_CACHE_MS',
      default: 60_000,
      description: 'how long tracker answers are cached (`0` turns the cache off)',
    }),
  }),
  circleci: Type.Object({
    baseUrl: url({
      env: 'CIRCLECI_BASE_URL',
      default: 'https://circleci.com',
      description: 'CircleCI address',
    }),
    token: text({
      env: 'CIRCLECI_TOKEN',
      description:
        'CircleCI token (without one, starting a manual run answers 502 and the status poll is off)',
    }),
    projectSlug: text({
      env: 'CIRCLECI_PROJECT_SLUG',
      description: "project of the manual E2E runs when an app's `pipelineUrl` names none",
    }),
    pollMs: integer({
      env: 'CIRCLECI_POLL_MS',
      default: 30_000,
      minimum: 1,
      description: "how often a manual run's pipeline is polled",
    }),
  }),
  fcm: Type.Object({
    baseUrl: url({
      env: 'FCM_BASE_URL',
      default: 'https://fcm.googleapis.com',
      description: 'push (FCM) address',
    }),
    serviceAccountJson: text({
      env: 'FCM_SERVICE_ACCOUNT_JSON',
      description:
        'the JSON of a service-account key (push is off without it or `GOOGLE_APPLICATION_CREDENTIALS`)',
    }),
    credentialsFile: text({
      env: 'GOOGLE_APPLICATION_CREDENTIALS',
      description: 'path of a service-account key file, read when `FCM_SERVICE_ACCOUNT_JSON` is unset',
    }),
    concurrency: integer({
      env: 'FCM_CONCURRENCY',
      default: 10,
      minimum: 1,
      maximum: 1000,
      description: 'push requests in flight at once per delivery',
    }),
  }),
  webhooks: Type.Object({
    allowPrivate: flag({
      env: 'WEBHOOK_ALLOW_PRIVATE',
      default: false,
      description: '`true`: production webhooks may target loopback, private and link-local hosts',
    }),
    retryDelaysMs: delays({
      env: 'WEBHOOK_RETRY_DELAYS_MS',
      default: [1000, 4000, 16_000],
      description: 'waits before each webhook retry (comma list)',
    }),
    pollMs: integer({
      env: 'WEBHOOK_POLL_MS',
      default: 2000,
      minimum: 10,
      description: "longest pause between looks for due deliveries (others' and retries)",
    }),
  }),
};

/** When the scheduled jobs run; part of `ConfigSchema` (schema.ts). */
export const JOB_VARIABLES = {
  jobs: Type.Object({
    timezone: timezone({
      env: 'CRON_TZ',
      default: 'UTC',
      description: 'time zone of the job schedules',
    }),
    e2eReport: cron({
      env: 'E2E_REPORT_CRON_SCHEDULE',
      default: '0 9 * * *',
      description: 'the daily E2E report job',
    }),
    prManagement: cron({
      env: 'PR_MANAGEMENT_SCHEDULE',
      default: '0 9 * * 1-5',
      description: 'the pull-request management job',
    }),
    manualTicketsReminder: cron({
      env: 'MANUAL_TICKETS_REMINDER_SCHEDULE',
      default: '0 9 * * 1-5',
      description: 'the manual-tickets reminder job',
    }),
    deleteCompletedTodos: cron({
      env: 'DELETE_COMPLETED_TODOS_SCHEDULE',
      default: '0 2 * * 0',
      description: 'the job deleting completed to-dos',
    }),
    quarantineReview: cron({
      env: 'QUARANTINE_REVIEW_SCHEDULE',
      default: '15 * * * *',
      description: 'the quarantine review job: lifts quarantines whose ticket is done or that expired',
    }),
    resultsRetention: cron({
      env: 'RESULTS_RETENTION_SCHEDULE',
      default: '30 3 * * *',
      description: 'the results retention job: deletes per-test results older than RESULTS_RETENTION_DAYS',
    }),
    resultsRetentionDays: integer({
      env: 'RESULTS_RETENTION_DAYS',
      default: 90,
      minimum: 1,
      description: 'days test-result uploads, their results, failures and unused test identities are kept',
    }),
  }),
};
