import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromiumAvailable, CHROMIUM, openSignedIn, type Stack } from './harness.js';
import { closeSession, openSession, STEP } from './steps.js';
import { screens } from './screens.js';

if (!chromiumAvailable && !process.env.CI) {
  console.warn(`browser tests SKIPPED: ${CHROMIUM} is missing (apt-get install chromium)`);
}

const visible = (locator: Locator, timeout = STEP) => locator.first().waitFor({ state: 'visible', timeout });
const textOf = (locator: Locator) =>
  expect.poll(
    () =>
      locator
        .first()
        .textContent({ timeout: 1000 })
        .catch(() => ''),
    {
      timeout: STEP,
      interval: 200,
    },
  );

const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const today = dayOffset(0);
const yesterday = dayOffset(-1);
const specRow = (
  project: string,
  run: number,
  day: string,
  hour: number,
  spec: string,
  status: string,
  extra: Record<string, unknown> = {},
) => ({
  project_name: project,
  run_number: run,
  created_at: `${day}T${String(hour).padStart(2, '0')}:00:00.000Z`,
  status,
  spec,
  total_tests: 6,
  pass_tests: status === 'passed' ? 6 : 4,
  fail_tests: status === 'passed' ? 0 : 2,
  flaky_tests: 0,
  spec_duration: 20_000,
  commit_author_name: 'Ada Lovelace',
  commit_branch: 'main',
  ...extra,
});

describe.skipIf(!chromiumAvailable && !process.env.CI)('test insight in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let shopId: number;
  const problems: string[] = [];

  beforeAll(async () => {
    ({ stack, browser, page } = await openSession());
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));

    const create = async (name: string) =>
      (
        await stack.api<{ id: number }>('/api/apps', {
          method: 'POST',
          body: { name, code: `${name}-code`, pipelineUrl: `https://ci.example.com/${name}` },
        })
      ).body.data.id;
    shopId = await create('shop');
    await create('admin');
    await create('shopp');
    stack.cypress.rows = [
      specRow('shop', 1, yesterday, 8, 'cypress/e2e/checkout.cy.ts', 'passed'),
      specRow('shop', 1, yesterday, 8, 'cypress/e2e/search.cy.ts', 'passed', { flaky_tests: 1 }),
      specRow('admin', 7, yesterday, 9, 'cypress/e2e/users.cy.ts', 'failed'),
      specRow('shop', 2, today, 6, 'cypress/e2e/checkout.cy.ts', 'failed', {
        commit_author_name: 'Grace Hopper',
        spec_duration: 95_000,
      }),
      specRow('shop', 2, today, 6, 'cypress/e2e/search.cy.ts', 'passed'),
      specRow('admin', 8, today, 7, 'cypress/e2e/users.cy.ts', 'passed'),
    ];
    // Yesterday's report exists before the Overview asks for today's.
    await stack.api(`/api/e2e_run_report?date=${yesterday}`);
    const deadline = Date.now() + STEP;
    while ((await stack.api(`/api/e2e_run_report?date=${yesterday}`)).status !== 200) {
      if (Date.now() > deadline) throw new Error("yesterday's report was not generated");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 180_000);

  afterAll(() => closeSession(browser, stack));

  it('shows the day figures, the since-yesterday strip and the apps without runs on the Overview', async () => {
    await openSignedIn(page, stack.baseUrl, '/');
    const strip = page.getByTestId('since-yesterday');
    await visible(strip.getByRole('heading', { name: 'Newly failing' }));
    await textOf(strip.locator('.change-bad')).toContain('shop');
    await textOf(strip.locator('.change-good')).toContain('admin');
    await textOf(strip.locator('.change-warn')).toContain('cypress/e2e/checkout.cy.ts');
    await textOf(page.getByRole('list', { name: 'Runs of the report day' })).toMatch(/Day runs\s*2/);
    await textOf(page.getByRole('region', { name: /Watched apps without runs/ })).toContain(
      'No Cypress project named “shopp”',
    );
    await screens(page, 'overview');
  }, 60_000);

  it('opens the app report from its row, with failing specs, author, flaky and slowest specs and trend', async () => {
    await page.getByRole('table').getByRole('link', { name: 'shop', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/apps/${shopId}/report`);
    expect(new URL(page.url()).searchParams.get('date')).toBe(today);
    await visible(page.getByRole('heading', { name: 'shop', level: 1 }));
    const failing = page.getByTestId('failing-specs');
    await textOf(failing).toContain('cypress/e2e/checkout.cy.ts');
    await textOf(failing).toContain('Grace Hopper');
    await textOf(failing.locator('td[data-label="Failing since"]')).toContain(today.slice(0, 4));
    await textOf(page.getByTestId('last-failure-author')).toContain('Grace Hopper');
    await textOf(page.getByTestId('flaky-specs')).toContain('cypress/e2e/search.cy.ts');
    await textOf(page.getByTestId('slowest-specs').locator('tbody tr')).toContain('checkout.cy.ts');
    await visible(page.getByTestId('app-trend').locator('svg rect'));
    await screens(page, 'app-report');
  }, 60_000);

  it('opens a deep link with a date: the report of that day', async () => {
    await page.goto(new URL(`/apps/${shopId}/report?date=${yesterday}`, stack.baseUrl).href);
    await visible(page.getByRole('heading', { name: 'shop', level: 1 }));
    await expect.poll(() => page.locator('#app-report-date').inputValue()).toBe(yesterday);
    await textOf(page.getByTestId('failing-specs')).toContain('No spec is failing in its last run.');
    // Changing the date keeps it in the address (today is the default, so it leaves the query).
    await page.locator('#app-report-date').fill(today);
    await expect.poll(() => new URL(page.url()).searchParams.get('date')).toBeNull();
    await textOf(page.getByTestId('failing-specs')).toContain('cypress/e2e/checkout.cy.ts');
    expect(problems).toEqual([]);
  }, 60_000);
});
