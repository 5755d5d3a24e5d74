import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromiumAvailable, launchBrowser, openSignedIn, type Stack } from './harness.js';
import { closeSession, cypressRow, openSession, STEP, waitText } from './steps.js';
import { screens } from './screens.js';

const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const row = (project: string, run: number, status: 'passed' | 'failed') =>
  cypressRow(project, run, status, `${today}T0${run % 10}:00:00.000Z`);

async function open(bare: boolean, env?: Record<string, string>) {
  const session = await openSession({ bare, ...(env ? { env } : {}) });
  await session.stack.api('/api/apps', {
    method: 'POST',
    body: { name: 'Shop web', code: 'shop-web', pipelineUrl: 'https://ci.example.com/shop' },
  });
  return session;
}

const table = (page: Page) => page.getByRole('table', { name: /Applications/ });
const focusTab = (page: Page) => page.evaluate("window.dispatchEvent(new Event('focus'))");

describe.skipIf(!chromiumAvailable && !process.env.CI)('report state and links, seeded start', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    ({ stack, browser, page } = await open(false));
    stack.cypress.rows = [row('Shop web', 1, 'passed'), row('Shop web', 2, 'failed')];
  }, 180_000);
  afterAll(() => closeSession(browser, stack));

  it('keeps the last ready figures, dimmed, with the progress while the report regenerates', async () => {
    await openSignedIn(page, stack.baseUrl, '/');
    await waitText(table(page), /Shop web[\s\S]*50\.0%/);
    // The success-rate bar takes its colour from the rate: 50% is below the 70% warning line.
    expect(await table(page).locator('.rate-bar').getAttribute('class')).toBe('rate-bar rate-bad');
    stack.cypress.delayMs = 3000;
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await page.getByRole('progressbar', { name: 'Report generation in progress' }).waitFor({ timeout: STEP });
    await waitText(page.getByRole('status').filter({ hasText: 'Regenerating' }), /last ready ones/);
    expect(await page.locator('.report-figures.is-stale').count()).toBe(1);
    await waitText(table(page), /Shop web[\s\S]*50\.0%/);
    await screens(page, 'overview-regenerating');
    stack.cypress.delayMs = 0;
    await expect.poll(() => page.locator('.report-figures.is-stale').count(), { timeout: 30_000 }).toBe(0);
    expect(await page.getByRole('progressbar').count()).toBe(0);
  }, 90_000);

  it('after a failed regeneration keeps the figures and says which report they are, in a fresh browser too', async () => {
    stack.cypress.failures = Array.from({ length: 30 }, () => 500);
    await page.getByRole('button', { name: 'Regenerate' }).click();
    const banner = /Regeneration failed at (\d\d:\d\d) — showing the report generated at (\d\d:\d\d)/;
    const failure = page.getByRole('alert').filter({ hasText: 'Regeneration failed' });
    await waitText(failure, banner, 40_000);
    // The times are the service's (the browser runs in UTC): when it failed, when the figures were made.
    const { summary, lastReady } = (await stack.api<never>(`/api/e2e_run_report?date=${today}`))
      .body as unknown as {
      summary: { status: string; updatedAt: string; lastReadyAt: string; attempt: number };
      lastReady?: unknown;
    };
    expect(summary).toMatchObject({ status: 'failed', attempt: 4 });
    expect(lastReady).toBeDefined();
    const expected = `Regeneration failed at ${summary.updatedAt.slice(11, 16)} — showing the report generated at ${summary.lastReadyAt.slice(11, 16)}`;
    await waitText(failure, new RegExp(expected));
    await waitText(failure, /Cause: the test-results service answered 500/);
    await waitText(table(page), /Shop web[\s\S]*50\.0%/);
    expect(await page.locator('.report-figures.is-stale').count()).toBe(1);
    await screens(page, 'overview-failed');

    // A browser that never saw the good report gets it from the service.
    const fresh = await launchBrowser();
    try {
      const freshPage = fresh.context.pages()[0] ?? (await fresh.context.newPage());
      await openSignedIn(freshPage, stack.baseUrl, '/');
      await waitText(
        freshPage.getByRole('alert').filter({ hasText: 'Regeneration failed' }),
        new RegExp(expected),
      );
      await waitText(table(freshPage), /Shop web[\s\S]*50\.0%/);
      expect(await freshPage.locator('.report-figures.is-stale').count()).toBe(1);
      await waitText(freshPage.getByTestId('since-yesterday'), /.+/);
      // The application's own report shows the same kept version, specs included.
      await table(freshPage).getByRole('link', { name: 'Shop web', exact: true }).click();
      await waitText(freshPage.getByRole('alert'), new RegExp(expected));
      await waitText(freshPage.locator('main'), /spec-2\.cy\.ts/);
    } finally {
      stack.cypress.failures = [];
      await fresh.close();
    }
  }, 90_000);

  it('keeps the report date in the address, through a reload; a bad date is named, not replaced', async () => {
    await openSignedIn(page, stack.baseUrl, `/?date=${yesterday}`);
    const input = page.getByLabel('Report date');
    await expect.poll(() => input.inputValue(), { timeout: STEP }).toBe(yesterday);
    await input.fill(today);
    await expect.poll(() => new URL(page.url()).search, { timeout: STEP }).toBe('');
    await input.fill(yesterday);
    await expect.poll(() => new URL(page.url()).searchParams.get('date')).toBe(yesterday);
    await page.reload();
    await expect.poll(() => page.getByLabel('Report date').inputValue(), { timeout: STEP }).toBe(yesterday);
    await openSignedIn(page, stack.baseUrl, '/?date=not-a-date');
    await waitText(page.getByTestId('date-problem'), /not a date/);
    expect(await page.getByLabel('Report date').inputValue()).toBe('');
  }, 90_000);

  /** Regenerates today's report through the API, as the scheduled job would, and waits until it is ready. */
  const regenerateElsewhere = async () => {
    await stack.api(`/api/e2e_run_report?date=${today}&force=true`);
    await expect
      .poll(
        async () =>
          (await stack.api<never>(`/api/e2e_run_report?date=${today}`)).body.summary as { status: string },
        { timeout: 30_000 },
      )
      .toMatchObject({ status: 'ready' });
  };

  it('an open Overview notices a new ready report, and the unread count follows', async () => {
    await regenerateElsewhere();
    await openSignedIn(page, stack.baseUrl, '/');
    await waitText(table(page), /Shop web[\s\S]*50\.0%/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const unreadBefore = (await stack.api<unknown[]>('/api/notifications?isRead=false&limit=100')).body.data
      .length;

    // Elsewhere (the scheduled job, another user) a new report of today is made from new results.
    stack.cypress.rows = [row('Shop web', 1, 'passed'), row('Shop web', 2, 'passed')];
    await regenerateElsewhere();
    await stack.api('/api/notifications', {
      method: 'POST',
      body: { title: 'Shop web recovered', message: 'All runs passed.', type: 'e2e_success' },
    });
    await focusTab(page);
    await waitText(table(page), /Shop web[\s\S]*100%/);
    await nav.getByLabel(`${unreadBefore + 1} unread`).waitFor({ timeout: STEP });
  }, 90_000);

  it('an unknown address shows "Page not found" with a way home', async () => {
    await openSignedIn(page, stack.baseUrl, '/no/such/page');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({ timeout: STEP });
    await waitText(page.locator('main'), /\/no\/such\/page/);
    await screens(page, 'not-found');
    await page.getByRole('link', { name: 'Go to the Overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: STEP });
  }, 90_000);
});

describe.skipIf(!chromiumAvailable && !process.env.CI)(
  'report attempts, seeded start with slow retries',
  () => {
    let stack: Stack;
    let browser: Browser;
    let page: Page;
    beforeAll(async () => {
      // Retries wait 3 s, long enough for the page's poll to see one waiting.
      ({ stack, browser, page } = await open(false, { REPORT_RETRY_BASE_MS: '3000' }));
      stack.cypress.rows = [row('Shop web', 1, 'passed'), row('Shop web', 2, 'failed')];
    }, 180_000);
    afterAll(() => closeSession(browser, stack));

    it('a pending report says which attempt runs, why the last one failed and when the next comes', async () => {
      await openSignedIn(page, stack.baseUrl, '/');
      await waitText(table(page), /Shop web[\s\S]*50\.0%/);
      stack.cypress.failures = [503];
      await page.getByRole('button', { name: 'Regenerate' }).click();
      const status = page.getByRole('status').filter({ hasText: 'Regenerating' });
      await waitText(
        status,
        /Attempt 2 of 4 — the test-results service answered 503; next try at \d\d:\d\d:\d\d/,
        20_000,
      );
      const { summary } = (await stack.api<never>(`/api/e2e_run_report?date=${today}`)).body as unknown as {
        summary: { nextAttemptAt: string | null };
      };
      if (summary.nextAttemptAt)
        await waitText(status, new RegExp(`next try at ${summary.nextAttemptAt.slice(11, 19)}`));
      await status.getByText('Details').click();
      await waitText(status, /Last error\s*The test-results service answered 503 for http:\/\/127\.0\.0\.1/);
      await screens(page, 'overview-retrying');
      await expect.poll(() => page.locator('.report-figures.is-stale').count(), { timeout: 30_000 }).toBe(0);
      expect(await page.getByRole('progressbar').count()).toBe(0);
    }, 90_000);
  },
);

describe.skipIf(!chromiumAvailable && !process.env.CI)('report state, bare start', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => ({ stack, browser, page } = await open(true)), 180_000);
  afterAll(() => closeSession(browser, stack));

  it('a report that cannot be generated says why, in place, with the set-up banner above', async () => {
    await openSignedIn(page, stack.baseUrl, '/');
    await page.getByTestId('setup-banner').waitFor({ timeout: STEP });
    const failure = page.getByRole('alert').filter({ hasText: 'could not be generated' });
    await waitText(failure, /Cause: .*answered 401/, 40_000);
    await screens(page, 'overview-bare-failed');
  }, 90_000);

  it('an unknown address shows "Page not found" there too', async () => {
    await openSignedIn(page, stack.baseUrl, '/apps/12/nothing');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({ timeout: STEP });
    expect(await page.getByRole('link', { name: 'Go to the Overview' }).count()).toBe(1);
  }, 90_000);
});
