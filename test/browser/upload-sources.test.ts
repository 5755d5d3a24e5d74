import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromiumAvailable, CHROMIUM, openSignedIn, type Stack } from './harness.js';
import { sidewaysOverflowCause, walkPages } from './page-checks.js';
import { screens } from './screens.js';
import { closeSession, openSession, STEP, textOf, waitText } from './steps.js';
import { junitRun, newerReadyReport, postResults } from './uploads.js';

if (!chromiumAvailable && !process.env.CI) {
  console.warn(`browser tests SKIPPED: ${CHROMIUM} is missing (apt-get install chromium)`);
}

const today = new Date().toISOString().slice(0, 10);
const ranAt = (run: number) =>
  new Date(Math.max(Date.parse(`${today}T00:00:00Z`), Date.now() - 3_600_000) + run * 60_000).toISOString();
const CHECKOUT = 'cypress/e2e/checkout/pay-with-a-saved-card-and-a-voucher.cy.ts';

/** Wrapped text fits its box: nothing is cut off to the right. */
const clipped = (page: Page, selector: string) =>
  page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(selector)})]
    .filter((el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).whiteSpace === 'nowrap')
    .map((el) => el.tagName + ' ' + (el.textContent || '').slice(0, 40))`);

describe.skipIf(!chromiumAvailable && !process.env.CI)('uploads as a results source, bare start', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const ids: Record<string, number> = {};
  const problems: string[] = [];

  beforeAll(async () => {
    ({ stack, browser, page } = await openSession({ bare: true }));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const apps = [
      { name: 'shop', code: 'shop-code', pipelineUrl: 'https://ci.example.com/shop' },
      {
        name: 'api',
        code: 'api-code',
        pipelineUrl: 'https://ci.example.com/api',
        repositoryUrl: 'https://github.com/acme/api',
      },
      // Not watched: without a Cypress key the report cannot ask the export about it.
      { name: 'idle', code: 'idle-code', pipelineUrl: 'https://ci.example.com/idle', watching: false },
    ];
    for (const body of apps) {
      ids[body.name] = (await stack.api<{ id: number }>('/api/apps', { method: 'POST', body })).body.data.id;
    }
  }, 180_000);

  afterAll(() => closeSession(browser, stack));

  it('the set-up banner offers uploads next to the Cypress key, and goes by itself after the first upload', async () => {
    await openSignedIn(page, stack.baseUrl, '/');
    const banner = page.getByTestId('setup-banner');
    await waitText(
      banner,
      /no data until test results arrive: set the Cypress key \(CYPRESS_API_KEY\) or upload/,
    );
    await screens(page, 'overview-banner-uploads');

    for (const run of [1, 2]) {
      const failing = run === 2;
      await postResults(
        stack,
        { app: 'shop-code', run, createdAt: ranAt(run) },
        junitRun([
          { file: CHECKOUT, failing },
          { file: 'cypress/e2e/search.cy.ts', failing: false },
        ]),
      );
      // A spec of api that never passed.
      await postResults(
        stack,
        { app: 'api-code', run, createdAt: ranAt(run), commit: String(run).repeat(40) },
        junitRun([
          { file: 'tests/broken.spec.ts', failing: true },
          { file: 'tests/fine.spec.ts', failing: false },
        ]),
      );
    }
    await expect.poll(() => banner.count(), { timeout: 25_000 }).toBe(0);
    await newerReadyReport(stack, today, undefined);
    await openSignedIn(page, stack.baseUrl, '/');
    await page.getByRole('heading', { name: 'Applications' }).waitFor({ timeout: STEP });
    expect(await page.getByTestId('setup-banner').count()).toBe(0);
  }, 120_000);

  it('Status lists the results sources: the Cypress export unset, and each uploading app', async () => {
    await openSignedIn(page, stack.baseUrl, '/status');
    const sources = page.getByRole('table', { name: 'Results sources' });
    await waitText(
      sources.locator('tr[data-source="cypress"]'),
      /Cypress Cloud export[\s\S]*not set up[\s\S]*CYPRESS_API_KEY/,
    );
    await waitText(
      sources.locator('tr[data-source="uploads"]'),
      /Uploads from CI[\s\S]*2 applications[\s\S]*(ago|just now)/,
    );
    const byApp = page.getByRole('table', { name: 'Uploads by application, newest first' });
    await waitText(
      byApp.locator('tr[data-upload-app="shop-code"]'),
      /shop[\s\S]*JUnit XML[\s\S]*(ago|just now)[\s\S]*#2/,
    );
    await waitText(byApp.locator('tr[data-upload-app="api-code"]'), /api[\s\S]*JUnit XML[\s\S]*#2/);
    expect(await byApp.locator('tr[data-upload-app="idle-code"]').count()).toBe(0);
    await screens(page, 'status-sources');
  }, 60_000);

  it("Applications counts today's uploaded runs, and names no source for an app that has none", async () => {
    await openSignedIn(page, stack.baseUrl, '/apps');
    const row = (code: string) => page.getByRole('row', { name: new RegExp(code) });
    await waitText(row('shop-code').locator('td[data-label="Runs today"]'), /^2\s*from uploads$/);
    await waitText(row('idle-code').locator('td[data-label="Runs today"]'), /^No results source$/);
    await waitText(row('idle-code').locator('td[data-label="Manual runs today"]'), /^0$/);
    await screens(page, 'apps-uploads-bare');
  }, 60_000);

  it('Suspects of a spec that never passed, or of an app without a repository, read as a sentence', async () => {
    await openSignedIn(page, stack.baseUrl, `/apps/${ids.api}/report?date=${today}`);
    const broken = page.getByTestId('failing-specs').getByRole('row', { name: /tests\/broken\.spec\.ts/ });
    await broken.getByText('Suspects', { exact: true }).click();
    await waitText(broken.locator('.spec-suspects'), /No passing run to compare with/);
    expect(await broken.getByRole('alert').count()).toBe(0);
    expect(await broken.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await screens(page, 'app-report-no-passing-run');

    await openSignedIn(page, stack.baseUrl, `/apps/${ids.shop}/report?date=${today}`);
    const checkout = page.getByTestId('failing-specs').getByRole('row', { name: new RegExp(CHECKOUT) });
    await checkout.getByText('Suspects', { exact: true }).click();
    await waitText(checkout.locator('.spec-suspects'), /Suspects need the application's repository/);
    expect(await checkout.getByRole('alert').count()).toBe(0);
  }, 60_000);

  it('the quarantine dialog wraps its text at 1440 and 390 px', async () => {
    await openSignedIn(page, stack.baseUrl, `/apps/${ids.shop}/report?date=${today}`);
    await page.getByRole('button', { name: `Quarantine ${CHECKOUT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Quarantine ${CHECKOUT}` });
    await waitText(dialog, /stays in the figures, but the daily alert no longer reports it/);
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(150);
      expect(await clipped(page, 'dialog[open] p, dialog[open] h2, dialog[open] label'), `${width}`).toEqual(
        [],
      );
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${width}`).toBeLessThanOrEqual(width);
      expect(await sidewaysOverflowCause(page)).toBe('none');
    }
    await screens(page, 'quarantine-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await textOf(page.getByTestId('failing-specs'))).toContain(CHECKOUT);
  }, 60_000);

  it('the touched pages have no sideways scroll on a phone and no serious axe finding, light or dark', async () => {
    const found = await walkPages(page, stack.baseUrl, [
      '/',
      '/status',
      '/apps',
      `/apps/${ids.api}/report?date=${today}`,
    ]);
    expect(found).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);
});
