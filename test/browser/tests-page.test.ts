import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY } from '../support/test-app.js';
import { type Browser, chromiumAvailable, CHROMIUM, openSignedIn, type Stack } from './harness.js';
import { seriousViolations, settle, sidewaysOverflowCause } from './page-checks.js';
import { screens } from './screens.js';
import { closeSession, openSession, STEP, waitText } from './steps.js';
import { newerReadyReport } from './uploads.js';

if (!chromiumAvailable && !process.env.CI) {
  console.warn(`browser tests SKIPPED: ${CHROMIUM} is missing (apt-get install chromium)`);
}

// The real reporters' files (test/fixtures/reporters), uploaded as CI jobs send them.
const REPORTS = new URL('../fixtures/reporters/reports/', import.meta.url);
const report = (name: string) => readFileSync(new URL(name, REPORTS), 'utf8');
/** The same JUnit file with every test passing: its failures taken out. */
const allPassing = (xml: string) => xml.replace(/<failure[\s\S]*?<\/failure>/g, '');

const today = new Date().toISOString().slice(0, 10);
const ranAt = (run: number) =>
  new Date(Math.max(Date.parse(`${today}T00:00:00Z`), Date.now() - 3_600_000) + run * 60_000).toISOString();
const COMMIT_A = 'a'.repeat(40);
const COMMIT_B = '1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d';

async function upload(stack: Stack, run: number, commit: string, body: string, type: string) {
  const query = new URLSearchParams({ app: 'shop-code', run: String(run), commit, createdAt: ranAt(run) });
  const response = await fetch(new URL(`/api/test_results?${query.toString()}`, stack.baseUrl), {
    method: 'POST',
    headers: { 'x-api-key': TEST_KEY, 'content-type': type },
    body,
  });
  expect([200, 201], await response.text()).toContain(response.status);
}

/** No sideways scroll at 390 px and no serious axe violation, light and dark, at both widths. */
async function checkHere(page: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.waitForTimeout(120);
      if (width === 390) {
        const cause = await sidewaysOverflowCause(page);
        if (cause !== 'none') problems.push(`${name} ${scheme} 390: scrolls sideways ${cause}`);
      }
      for (const line of await seriousViolations(page)) problems.push(`${name} ${scheme} ${width}: ${line}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  return problems;
}

describe.skipIf(!chromiumAvailable && !process.env.CI)('tests of a spec and the test page', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let appId: number;
  const pageErrors: string[] = [];
  const reportPath = () => `/apps/${appId}/report?date=${today}`;

  beforeAll(async () => {
    // Results kept 7 days: today's 14-day window reaches past them, so the tests say so.
    ({ stack, browser, page } = await openSession({ bare: true, env: { RESULTS_RETENTION_DAYS: '7' } }));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const body = { name: 'Shop', code: 'shop-code', pipelineUrl: 'https://ci.example.com/shop' };
    appId = (await stack.api<{ id: number }>('/api/apps', { method: 'POST', body })).body.data.id;
    const jest = report('jest-diffs-junit.xml');
    // Jest: the cart passes on commit A, fails twice on commit B, then passes on B (flaky by commit).
    await upload(stack, 1, COMMIT_A, allPassing(jest), 'application/xml');
    await upload(stack, 2, COMMIT_B, jest, 'application/xml');
    await upload(stack, 3, COMMIT_B, jest, 'application/xml');
    await upload(stack, 4, COMMIT_B, allPassing(jest), 'application/xml');
    await upload(stack, 5, COMMIT_B, jest, 'application/xml');
    // Playwright with retries: one test fails every attempt, one passes on its retry.
    await upload(stack, 6, COMMIT_B, report('playwright.json'), 'application/json');
    await upload(stack, 7, COMMIT_B, report('mocha-chai-junit.xml'), 'application/xml');
    await newerReadyReport(stack, today, undefined);
  }, 180_000);

  afterAll(() => closeSession(browser, stack));

  it('a spec row opens its tests, the failing ones first', async () => {
    await openSignedIn(page, stack.baseUrl, reportPath());
    const failing = page.getByTestId('failing-specs');
    const row = failing.getByRole('row', { name: /suites\/jest-diffs\/cart\.spec\.js/ });
    const toggle = row.getByRole('button', { name: /tests.* in suites\/jest-diffs\/cart\.spec\.js$/i });
    await toggle.waitFor({ timeout: STEP });
    // The spec item's counts (#36) name the button when the server sends them.
    expect(await toggle.textContent()).toMatch(/3 tests · 2 failing|Tests/);
    await toggle.press('Enter');
    const tests = page.getByRole('list', { name: 'Tests of suites/jest-diffs/cart.spec.js' });
    await waitText(tests, /sums the lines/);
    const titles = await tests.locator('.test-title').allTextContents();
    expect(titles).toHaveLength(3);
    expect(titles[2]).toMatch(/keeps the currency/);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await waitText(
      page.locator('.retention-note').first(),
      /Results are kept 7 days: runs of this report's window before/,
    );
    await settle(page);
    expect(await checkHere(page, 'app report, tests open')).toEqual([]);
    await screens(page, 'app-report-tests');
  }, 90_000);

  it('the search box finds tests by title, and keeps the words in the address', async () => {
    await openSignedIn(page, stack.baseUrl, reportPath());
    const search = page.getByRole('searchbox', { name: 'Test title' });
    await search.fill('discounted');
    const found = page.getByRole('list', { name: 'Tests matching discounted' });
    await waitText(found, /shows the discounted total/);
    expect(await found.locator('.test-title').count()).toBeGreaterThanOrEqual(1);
    await expect.poll(() => new URL(page.url()).searchParams.get('test')).toBe('discounted');
    await search.fill('no such test anywhere');
    await waitText(page.locator('.test-search-results'), /No test title holds “no such test anywhere”/);
    await search.fill('cart');
    await waitText(page.getByRole('list', { name: 'Tests matching cart' }), /sums the lines/);
    await settle(page);
    expect(await checkHere(page, 'search')).toEqual([]);
    await screens(page, 'app-report-search');
  }, 90_000);

  it('the test page of a Jest test: its runs, the line diff, the stack by origin and its flakiness', async () => {
    await openSignedIn(page, stack.baseUrl, reportPath());
    await page.getByRole('searchbox', { name: 'Test title' }).fill('sums the lines');
    const link = page
      .getByRole('list', { name: /Tests matching/ })
      .getByRole('link', { name: /sums the lines/ })
      .first();
    // Reached by keyboard: the link takes focus and opens with Enter.
    await link.focus();
    await link.press('Enter');
    await page.getByRole('heading', { level: 1, name: /sums the lines/ }).waitFor({ timeout: STEP });
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/apps/${appId}/tests/[^/]+$`));
    const strip = page.getByRole('list', { name: /results, oldest first/ });
    await waitText(strip, /✓/);
    const runs = await strip
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(runs.length).toBeGreaterThanOrEqual(5);
    expect(runs).toContain(`/apps/${appId}/runs/2`);
    await expect.poll(() => strip.getByRole('link', { name: /Run #2 failed/ }).count()).toBe(1);
    await page.getByRole('img', { name: /Duration of the last \d+ results/ }).waitFor();

    const error = page.locator('.error-view');
    await waitText(error.locator('.error-headline'), /expect\(received\)\.toEqual\(expected\)/);
    await waitText(error.locator('.line-diff'), /- Expected[\s\S]*\+ Received/);
    expect(await error.locator('.diff-expected mark').allTextContents()).toContain('3');
    expect(await error.locator('.diff-received mark').allTextContents()).toContain('2');
    // The project's frame is shown; the runner's 15 frames are folded behind a button.
    expect(await error.locator('.frame-project').count()).toBe(1);
    expect(await error.locator('.frame-runner').count()).toBe(0);
    await error.getByRole('button', { name: /Show all \d+ lines/ }).click();
    expect(await error.locator('.frame-runner').count()).toBeGreaterThan(10);

    await waitText(page.locator('.evidence'), /Failed and passed on commit 1a2b3c4/);
    expect(await page.getByRole('button', { name: 'Quarantine this test' }).count()).toBe(1);
    await settle(page);
    expect(await checkHere(page, 'jest test page')).toEqual([]);
    await screens(page, 'test-page-jest');
  }, 90_000);

  it("the test page of a Playwright test: Expected/Received side by side, the code frame, a retry's evidence", async () => {
    await openSignedIn(page, stack.baseUrl, `${reportPath()}&test=discounted`);
    await page
      .getByRole('list', { name: /Tests matching/ })
      .getByRole('link', { name: /shows the discounted total/ })
      .first()
      .click();
    const error = page.locator('.error-view');
    await waitText(error.locator('.value-expected'), /Expected\s*"9\.00"/);
    await waitText(error.locator('.value-received'), /Received\s*"10\.00"/);
    expect(await error.locator('.value-received mark').allTextContents()).toEqual(['10']);
    await waitText(error.locator('.code-frame .code-current'), /toHaveText\('9\.00'/);
    await waitText(error.locator('.error-location'), /checkout\.spec\.js:13/);
    await settle(page);
    expect(await checkHere(page, 'playwright test page')).toEqual([]);
    await screens(page, 'test-page-playwright');

    await openSignedIn(page, stack.baseUrl, `${reportPath()}&test=gateway`);
    await page
      .getByRole('list', { name: /Tests matching/ })
      .getByRole('link', { name: /slow payment gateway/ })
      .first()
      .click();
    await waitText(page.locator('.evidence'), /Passed on retry in run #6/);
  }, 90_000);

  it('a read key sees the test page without "Quarantine this test"', async () => {
    const created = await stack.api<{ key: string }>('/api/keys', {
      method: 'POST',
      body: { name: 'qa-reader', scope: 'read' },
    });
    expect(created.status).toBe(201);
    await page.goto(new URL('/not-a-page', stack.baseUrl).href);
    await page.evaluate(
      `localStorage.clear(); localStorage.setItem('dashboard.apiKey', ${JSON.stringify(created.body.data.key)})`,
    );
    await page.goto(new URL(`${reportPath()}&test=gateway`, stack.baseUrl).href);
    await page
      .getByRole('list', { name: /Tests matching/ })
      .getByRole('link', { name: /slow payment gateway/ })
      .first()
      .click();
    await page.getByRole('heading', { level: 2, name: 'Flakiness' }).waitFor({ timeout: STEP });
    await waitText(page.getByRole('note'), /Read-only key/);
    expect(await page.getByRole('button', { name: 'Quarantine this test' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
