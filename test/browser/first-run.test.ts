import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeJiraIssue } from '../fakes/fake-jira.js';
import { MY_TICKETS_JQL, manualQaJql } from '../../src/modules/tracker/tracker.service.js';
import { type Browser, chromiumAvailable, JIRA, openSignedIn, type Stack } from './harness.js';
import { closeSession, openSession, STEP, textOf, waitText } from './steps.js';
import { screens } from './screens.js';

const APPS = [
  {
    name: 'Shop web',
    code: 'shop-web',
    pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/shop',
    e2eTriggerConfiguration: { enabled: true, branch: 'main' },
  },
  {
    name: 'Back office',
    code: 'back-office',
    pipelineUrl: 'https://app.circleci.com/pipelines/github/acme/office',
  },
];

async function withStack(bare: boolean) {
  const session = await openSession({ bare });
  for (const body of APPS) await session.stack.api('/api/apps', { method: 'POST', body });
  return session;
}

/** "Run E2E" is offered on the app with an enabled trigger, and only there. */
async function expectRunButtonOnlyOnTriggeredApp(page: Page, baseUrl: string) {
  await openSignedIn(page, baseUrl, '/apps');
  const shop = page.getByRole('row', { name: /Shop web/ });
  await shop.waitFor({ timeout: STEP });
  expect(await shop.getByRole('button', { name: /Run E2E/ }).count()).toBe(1);
  const office = page.getByRole('row', { name: /Back office/ });
  expect(await office.getByRole('button', { name: /Edit/ }).count()).toBe(1);
  expect(await office.getByRole('button', { name: /Run E2E/ }).count()).toBe(0);
}

describe.skipIf(!chromiumAvailable && !process.env.CI)('first run, bare start (no integration set)', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => ({ stack, browser, page } = await withStack(true)), 180_000);
  afterAll(() => closeSession(browser, stack));

  it('Overview shows a compact banner naming the missing test-results key, linking to Status', async () => {
    await openSignedIn(page, stack.baseUrl, '/');
    const banner = page.getByTestId('setup-banner');
    await waitText(banner, /CYPRESS_API_KEY/);
    await waitText(banner, /Also not set up: GitHub, Tracker \(Jira\), CircleCI/);
    await screens(page, 'overview-bare');
    await banner.getByRole('link', { name: 'Open the Status page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor({ timeout: STEP });
    expect(new URL(page.url()).pathname).toBe('/status');
  }, 90_000);

  it('Status lists each integration as not set up with the variables to set, and the jobs', async () => {
    await openSignedIn(page, stack.baseUrl, '/status');
    const row = (name: string) => page.locator(`tr[data-integration="${name}"]`);
    await waitText(row('cypress'), /not set up[\s\S]*CYPRESS_API_KEY/);
    await waitText(row('github'), /GITHUB_TOKEN/);
    await waitText(row('jira'), /JIRA_BASE_URL[\s\S]*JIRA_MANUAL_QA_PROJECT/);
    await waitText(row('circleci'), /CIRCLECI_TOKEN/);
    await waitText(page.getByRole('status').filter({ hasText: 'integrations are not set up' }), /5 of 5/);
    await waitText(page.getByRole('table', { name: 'Scheduled jobs' }), /Daily E2E report/);
    await waitText(page.locator('.status-facts'), /SQLite[\s\S]*in-process/);
    await screens(page, 'status-bare');
  }, 90_000);

  it('Tickets shows "not set up" with the tracker variables, not an error', async () => {
    await openSignedIn(page, stack.baseUrl, '/tickets');
    const mine = page.getByRole('region', { name: 'My tickets' });
    await waitText(mine, /not set up[\s\S]*JIRA_API_TOKEN/);
    // The manual QA section also needs the project; "My tickets" does not.
    await waitText(page.getByRole('region', { name: /manual QA/ }), /JIRA_MANUAL_QA_PROJECT/);
    expect(await textOf(mine)).not.toContain('JIRA_MANUAL_QA_PROJECT');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await textOf(page.locator('main'))).not.toMatch(/External service error|Try again/);
    await screens(page, 'tickets-bare');
  }, 90_000);

  it('Applications offers "Run E2E" only on the app whose trigger is enabled', async () => {
    await expectRunButtonOnlyOnTriggeredApp(page, stack.baseUrl);
    const shop = page.getByRole('row', { name: /Shop web/ });
    await waitText(shop.locator('td[data-label="Last E2E result"]'), /No ready report yet/);
    await waitText(shop.locator('td[data-label="Last manual run"]'), /None yet/);
    await screens(page, 'apps-bare');
  }, 90_000);
});

describe.skipIf(!chromiumAvailable && !process.env.CI)('first run, seeded start (fakes configured)', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => ({ stack, browser, page } = await withStack(false)), 180_000);
  afterAll(() => closeSession(browser, stack));

  it('Overview has no set-up banner once the test-results key is set', async () => {
    await openSignedIn(page, stack.baseUrl, '/status');
    await page.locator('tr[data-integration="cypress"]').waitFor({ timeout: STEP });
    await openSignedIn(page, stack.baseUrl, '/');
    await page.getByRole('heading', { name: 'Success rate trend' }).waitFor({ timeout: STEP });
    expect(await page.getByTestId('setup-banner').count()).toBe(0);
  }, 90_000);

  it('Status shows the configured integrations as set up; only push is left', async () => {
    await openSignedIn(page, stack.baseUrl, '/status');
    for (const name of ['cypress', 'github', 'jira', 'circleci']) {
      await waitText(page.locator(`tr[data-integration="${name}"]`), /set up/);
      expect(await textOf(page.locator(`tr[data-integration="${name}"]`))).not.toContain('not set up');
    }
    await waitText(page.locator('tr[data-integration="fcm"]'), /not set up[\s\S]*FCM_SERVICE_ACCOUNT_JSON/);
    await waitText(page.getByRole('status').filter({ hasText: 'integrations' }), /1 of 5/);
    await screens(page, 'status-seeded');
  }, 90_000);

  it('Tickets lists the tracker answers with no set-up note', async () => {
    stack.jira.setIssues(manualQaJql(JIRA.project), [fakeJiraIssue(7, { summary: 'Check Safari' })]);
    stack.jira.setIssues(MY_TICKETS_JQL, [fakeJiraIssue(11, { summary: 'Flaky login spec' })]);
    await openSignedIn(page, stack.baseUrl, '/tickets');
    await page.getByRole('link', { name: /QA-7/ }).waitFor({ timeout: STEP });
    await page.getByRole('link', { name: /QA-11/ }).waitFor({ timeout: STEP });
    expect(await page.getByRole('note').count()).toBe(0);
  }, 90_000);

  it('Applications offers "Run E2E" only on the app whose trigger is enabled', async () => {
    await expectRunButtonOnlyOnTriggeredApp(page, stack.baseUrl);
  }, 90_000);

  it('Applications shows the last E2E result from the report apart from the last manual run', async () => {
    const today = new Date().toISOString().slice(0, 10);
    stack.cypress.rows = [1, 2, 3].map((run) => ({
      project_name: 'Shop web',
      run_number: run,
      created_at: `${today}T0${run}:00:00.000Z`,
      status: run === 3 ? 'failed' : 'passed',
      spec: 'cypress/e2e/cart.cy.ts',
      total_tests: 4,
      pass_tests: run === 3 ? 3 : 4,
      fail_tests: run === 3 ? 1 : 0,
      flaky_tests: 0,
    }));
    await stack.api(`/api/e2e_run_report?date=${today}&force=true`);
    await expect
      .poll(async () => (await stack.api(`/api/e2e_run_report?date=${today}`)).status, { timeout: 30_000 })
      .toBe(200);
    await openSignedIn(page, stack.baseUrl, '/apps');
    const shop = page.getByRole('row', { name: /Shop web/ });
    const result = shop.locator('td[data-label="Last E2E result"]');
    await waitText(result, /failed[\s\S]*3 runs in the report of/);
    expect(await result.getByRole('link').getAttribute('href')).toBe(`/apps/1/report?date=${today}`);
    await waitText(shop.locator('td[data-label="Last manual run"]'), /None yet/);
    await waitText(page.getByRole('row', { name: /Back office/ }), /Not in the latest report/);
    await screens(page, 'apps-seeded');
  }, 90_000);

  it('keeps the to-do list filter in the address', async () => {
    await stack.api('/api/to_do_list', { method: 'POST', body: { title: 'Still open' } });
    const done = await stack.api<{ id: number }>('/api/to_do_list', {
      method: 'POST',
      body: { title: 'Finished' },
    });
    await stack.api(`/api/to_do_list/${done.body.data.id}`, { method: 'PUT', body: { isCompleted: true } });
    await openSignedIn(page, stack.baseUrl, '/todos');
    const finished = page.getByRole('listitem').filter({ hasText: 'Finished' });
    await finished.waitFor({ timeout: STEP });
    await page.getByLabel('Show completed').uncheck();
    await expect.poll(() => new URL(page.url()).searchParams.get('completed')).toBe('hidden');
    await page.reload();
    await page.getByRole('listitem').filter({ hasText: 'Still open' }).waitFor({ timeout: STEP });
    expect(await finished.count()).toBe(0);
    expect(await page.getByLabel('Show completed').isChecked()).toBe(false);
  }, 90_000);

  it('deletes a to-do only once the dialog is confirmed, and says so', async () => {
    await stack.api('/api/to_do_list', { method: 'POST', body: { title: 'Throw away' } });
    await openSignedIn(page, stack.baseUrl, '/todos');
    const doomed = page.getByRole('listitem').filter({ hasText: 'Throw away' });
    await doomed.getByRole('button', { name: /Delete/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete to-do?' });
    await waitText(dialog, /“Throw away” will be deleted/);
    await screens(page, 'todos-delete-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await doomed.count()).toBe(1);
    await doomed.getByRole('button', { name: /Delete/ }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => doomed.count(), { timeout: STEP }).toBe(0);
    await waitText(page.getByRole('status').filter({ hasText: 'deleted' }), /To-do deleted/);
    const { body } = await stack.api<{ title: string }[]>('/api/to_do_list');
    expect(body.data.map((todo) => todo.title)).not.toContain('Throw away');
  }, 90_000);
});
