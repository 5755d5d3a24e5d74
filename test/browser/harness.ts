import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config/config.js';
import { type FakeCircleCi, startFakeCircleCi } from '../fakes/fake-circleci.js';
import { type FakeCypress, startFakeCypress } from '../fakes/fake-cypress.js';
import { type FakeGitHub, startFakeGitHub } from '../fakes/fake-github.js';
import { type FakeJira, startFakeJira } from '../fakes/fake-jira.js';
import { type RunningService, startService } from '../../src/server.js';
import { TEST_KEY } from '../support/test-app.js';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCREENSHOTS = join(REPO, 'test', 'browser', 'screenshots');

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

function webBuildIsFresh(web: string): boolean {
  const built = join(web, 'dist', 'index.html');
  const sources = [join(web, 'src'), join(web, 'index.html'), join(web, 'vite.config.ts')];
  return existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newestChange));
}

/** A build that has held the lock this long died with it. */
const STALE_BUILD_LOCK_MS = 5 * 60_000;

/**
 * Builds web/dist when it is missing (CI checks out without it) or older than the UI's sources.
 * Browser test files run in parallel processes: one builds under a lock directory (mkdir is
 * atomic) while the others wait and then find the build fresh, so no file serves a dist that
 * another is emptying and rewriting.
 */
export async function ensureWebBuild(): Promise<void> {
  const web = join(REPO, 'web');
  if (webBuildIsFresh(web)) return;
  const lock = join(web, '.build-lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_BUILD_LOCK_MS)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (webBuildIsFresh(web)) return;
    }
  }
  try {
    if (webBuildIsFresh(web)) return;
    const { build } = await import('vite');
    await build({ configFile: join(web, 'vite.config.ts'), logLevel: 'warn' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface Stack {
  baseUrl: string;
  github: FakeGitHub;
  jira: FakeJira;
  circleci: FakeCircleCi;
  cypress: FakeCypress;
  service: RunningService;
  /** Calls the API with the key, for seeding and for checking what the UI did. */
  api<T = unknown>(
    path: string,
    init?: { method?: string; body?: unknown },
  ): Promise<{ status: number; body: { data: T } & Record<string, unknown> }>;
  stop(): Promise<void>;
}

export const JIRA = { email: 'qa-bot@example.com', apiToken: 'jira-token', project: 'SHOP' };
const CIRCLE_TOKEN = 'circle-token';
const CYPRESS_KEY = 'cypress-key';

/**
 * The real server (API and report worker roles, embedded broker, in-memory SQLite) with fake
 * integrations; `bare` leaves every credential unset, as a first `npm start` does (the base URLs
 * still point at the fakes, so nothing can reach the internet); `env` overrides variables.
 */
export async function startStack(
  options: { bare?: boolean; env?: Record<string, string> } = {},
): Promise<Stack> {
  const github = await startFakeGitHub({ token: 'gh-token' });
  const jira = await startFakeJira(JIRA);
  const circleci = await startFakeCircleCi(CIRCLE_TOKEN);
  const cypress = await startFakeCypress({ apiKey: CYPRESS_KEY });
  const config = loadConfig({
    NODE_ENV: 'test',
    API_SECURITY_KEY: TEST_KEY,
    HOST: '127.0.0.1',
    PORT: '0',
    ROLES: 'api,worker',
    DATABASE_URL: 'sqlite::memory:',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '0',
    REPORT_RETRY_BASE_MS: '200',
    GITHUB_URL: github.url,
    CIRCLECI_BASE_URL: circleci.url,
    CYPRESS_BASE_URL: cypress.url,
    ...(options.bare ? {} : integrationVariables({ jira })),
    ...options.env,
  });
  const service = await startService(config);
  if (!service.address) throw new Error('the api role did not start');
  const baseUrl = service.address.replace('0.0.0.0', '127.0.0.1');

  return {
    baseUrl,
    github,
    jira,
    circleci,
    cypress,
    service,
    async api(path, init = {}) {
      const response = await fetch(new URL(path, baseUrl), {
        method: init.method ?? 'GET',
        headers: {
          'x-api-key': TEST_KEY,
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : {} };
    },
    async stop() {
      await service.stop();
      await Promise.all([github.close(), jira.close(), circleci.close(), cypress.close()]);
    },
  };
}

function integrationVariables({ jira }: { jira: FakeJira }): Record<string, string> {
  return {
    GITHUB_TOKEN: 'gh-token',
    JIRA_BASE_URL: jira.url,
    JIRA_EMAIL: JIRA.email,
    JIRA_API_TOKEN: JIRA.apiToken,
    JIRA_MANUAL_QA_PROJECT: JIRA.project,
    TRACKER_CACHE_MS: '0',
    CIRCLECI_TOKEN: CIRCLE_TOKEN,
    CIRCLECI_POLL_MS: '500',
    CYPRESS_API_KEY: CYPRESS_KEY,
  };
}

/** Puts the key in the browser's storage, as a sign-in does, and opens `path`. */
export async function openSignedIn(page: Page, baseUrl: string, path = '/'): Promise<void> {
  await page.goto(new URL('/not-a-page', baseUrl).href);
  await page.evaluate(`localStorage.setItem('dashboard.apiKey', ${JSON.stringify(TEST_KEY)})`);
  await page.goto(new URL(path, baseUrl).href);
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with a fresh profile and nothing that reaches the internet by itself. */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'dashboard-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 800 },
    // Keeps dates and relative times stable in screenshots.
    timezoneId: 'UTC',
    locale: 'en-GB',
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** Full-page screenshots of the current page at desktop and phone widths (light; dark when asked). */
export async function screenshotBoth(
  page: Page,
  name: string,
  options: { dark?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const schemes = options.dark ? (['light', 'dark'] as const) : (['light'] as const);
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [label, size] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(size);
      await page.waitForTimeout(150);
      const suffix = scheme === 'dark' ? '-dark' : '';
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}${suffix}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(VIEWPORTS.desktop);
}
