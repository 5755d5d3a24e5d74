import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY } from '../support/test-app.js';
import { type Browser, chromiumAvailable, screenshotBoth, type Stack } from './harness.js';
import type { FakeSpecRow } from '../fakes/fake-cypress.js';
import {
  type DashboardSession,
  expectPhoneFriendly,
  hasText,
  openDashboard,
  visible,
} from './dashboard-session.js';
import { closeSession, cypressRow, STEP } from './steps.js';

const today = new Date().toISOString().slice(0, 10);
const at = (hour: number) => `${today}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const row = (project: string, run: number, status: string, hour: number, extra: Partial<FakeSpecRow> = {}) =>
  cypressRow(project, run, status, at(hour), extra);

/*
 * The dashboard walked through in one session: signing in, adding, running, reporting on, editing
 * and deleting applications, then every page at phone width, a blocked sign-in, and no script
 * errors anywhere. Pull requests, tickets, to-dos and notifications: dashboard-work-items.test.ts.
 */
describe.skipIf(!chromiumAvailable && !process.env.CI)('web dashboard in Chromium: applications', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  /** Script errors and CSP refusals seen on any page; the last test expects none. */
  let problems: string[];
  let go: DashboardSession['go'];

  beforeAll(async () => {
    ({ stack, browser, page, problems, go } = await openDashboard());
  }, 180_000);

  afterAll(() => closeSession(browser, stack));

  it('a wrong key shows the error and keeps the login form', async () => {
    await page.goto(stack.baseUrl);
    await screenshotBoth(page, 'login', { dark: true });
    await page.getByLabel('API key').fill('definitely-not-the-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await hasText(page.getByRole('alert'), 'not valid', STEP);
    await visible(page.getByLabel('API key'));
    await screenshotBoth(page, 'login-error');
  }, 60_000);

  it('logs in with the right key, which is kept across reloads', async () => {
    await page.getByLabel('API key').fill(TEST_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: STEP });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: STEP });
    expect(await page.evaluate('localStorage.getItem("dashboard.apiKey")')).toBe(TEST_KEY);
  }, 60_000);

  it('adds an application, showing the API validation messages next to the fields', async () => {
    await go('/apps', 'Applications');
    await page.getByRole('button', { name: 'Add application' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add application' });
    await dialog.getByLabel('Name').fill('Shop web');
    await dialog.getByLabel('Code').fill('shop-web');
    await dialog.getByLabel('Pipeline URL').fill('not a url');
    await dialog.getByRole('button', { name: 'Add application' }).click();
    // The API names the field pipelineUrl; the form says it with the label the user sees.
    await hasText(dialog.locator('.field-error'), 'Pipeline URL must be an absolute http(s) URL', STEP);
    await screenshotBoth(page, 'apps-form-error');

    await dialog.getByLabel('Pipeline URL').fill('https://app.circleci.com/pipelines/github/acme/shop');
    await dialog.getByLabel('Trigger enabled').check();
    await dialog.getByRole('button', { name: 'Add application' }).click();
    await visible(page.getByRole('row', { name: /Shop web/ }), STEP);
    const { body } = await stack.api<unknown[]>('/api/apps');
    expect(body.data).toMatchObject([{ name: 'Shop web', code: 'shop-web', watching: true }]);
  }, 60_000);

  it('triggers a manual E2E run and follows its status until CircleCI reports it finished', async () => {
    stack.circleci.addProject('github/acme/shop');
    await go('/apps', 'Applications');
    const shop = page.getByRole('row', { name: /Shop web/ });
    await shop.getByRole('button', { name: /Run E2E/ }).click();
    await visible(shop.getByRole('img', { name: 'Run in progress' }));
    await hasText(shop, 'created');
    const pipeline = stack.circleci.pipelines[0]!;
    stack.circleci.setWorkflows(pipeline.id, ['success']);
    await hasText(shop, 'success', 30_000);
    expect(await shop.getByRole('img', { name: 'Run in progress' }).count()).toBe(0);
  }, 60_000);

  it('shows the report once the fake test data is processed', async () => {
    await stack.api('/api/apps', {
      method: 'POST',
      body: {
        name: 'Checkout',
        code: 'checkout',
        pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/checkout',
      },
    });
    stack.cypress.rows = [
      row('Shop web', 1, 'passed', 1),
      row('Shop web', 2, 'failed', 2),
      row('Shop web', 3, 'passed', 3, { flaky_tests: 1 }),
      row('Checkout', 7, 'passed', 1),
      row('Checkout', 8, 'passed', 2),
    ];
    await go('/', 'Overview');
    // The report of today was generated at login, before these rows existed: regenerate it.
    stack.cypress.delayMs = 2500;
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await visible(page.getByRole('progressbar', { name: 'Report generation in progress' }));
    await screenshotBoth(page, 'overview-pending');
    stack.cypress.delayMs = 0;
    const table = page.getByRole('table', { name: /Applications/ });
    await visible(table, 60_000);
    const rows = table.getByRole('row');
    // Worst first: Shop web (2 of 3 passed) before Checkout (all passed).
    await hasText(rows.nth(1), 'Shop web');
    await hasText(rows.nth(1), '66.7%');
    await hasText(rows.nth(2), 'Checkout');
    await hasText(page.getByRole('list', { name: 'Totals' }), '5');
    await page.getByRole('heading', { name: 'Success rate trend' }).scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await screenshotBoth(page, 'overview', { dark: true });
  }, 90_000);

  it('screenshots the applications page after the data above', async () => {
    await go('/apps', 'Applications');
    await visible(page.getByRole('row', { name: /Checkout/ }), STEP);
    await screenshotBoth(page, 'apps', { dark: true });
  }, 60_000);

  it('edits an application (conflicts shown at the code field) and deletes one after confirming', async () => {
    await go('/apps', 'Applications');
    const checkout = page.getByRole('row', { name: /Checkout/ });
    await checkout.getByRole('button', { name: /Edit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Checkout' });
    await dialog.getByLabel('Code').fill('shop-web');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    const code = dialog.getByLabel('Code');
    await expect.poll(() => code.getAttribute('aria-invalid'), { timeout: STEP }).toBe('true');
    await hasText(dialog.locator('.field-error'), 'shop-web');
    await code.fill('checkout-web');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await hasText(checkout, 'checkout-web');

    await page.getByRole('switch', { name: 'Watching Checkout' }).click();
    await expect
      .poll(() => page.getByRole('switch', { name: 'Watching Checkout' }).getAttribute('aria-checked'))
      .toBe('false');

    await checkout.getByRole('button', { name: /Delete/ }).click();
    await page
      .getByRole('dialog', { name: 'Delete application?' })
      .getByRole('button', { name: 'Delete application' })
      .click();
    await expect.poll(() => checkout.count(), { timeout: STEP }).toBe(0);
    const { body } = await stack.api<{ code: string; watching: boolean }[]>('/api/apps');
    expect(body.data.map((app) => app.code)).toEqual(['shop-web']);
  }, 60_000);

  it('fits phone width on every page and names every control for screen readers', async () => {
    await expectPhoneFriendly(page, go);
  }, 60_000);

  it('repeated wrong keys show how long to wait (429 retryAfter)', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    const key = page.getByLabel('API key');
    for (let attempt = 1; attempt <= 3; attempt++) {
      await key.fill(`wrong-key-${attempt}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await hasText(page.getByRole('alert'), 'not valid');
    }
    await key.fill('wrong-key-4');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await hasText(page.getByRole('alert'), 'Try again in 30 minutes');
    await hasText(page.getByRole('alert'), 'Slow down');
    await screenshotBoth(page, 'login-blocked');
  }, 60_000);

  it('ran every page without script errors or Content-Security-Policy refusals', () => {
    expect(problems).toEqual([]);
  });
});
