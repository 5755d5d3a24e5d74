import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePullRequest } from '../fakes/fake-github.js';
import { fakeJiraIssue } from '../fakes/fake-jira.js';
import { MY_TICKETS_JQL, manualQaJql } from '../../src/modules/tracker/tracker.service.js';
import { type LowContrast, lowContrast } from './contrast.js';
import { screens } from './screens.js';
import { type Browser, chromiumAvailable, JIRA, openSignedIn, type Stack } from './harness.js';
import { closeSession, openSession, STEP } from './steps.js';

const DAY = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().replace(/\.\d+Z$/, 'Z');

/** Data that puts every badge tone, alert and state of the UI on screen. */
async function seed(stack: Stack): Promise<number> {
  const app = (name: string, code: string, trigger: boolean) =>
    stack.api<{ id: number }>('/api/apps', {
      method: 'POST',
      body: {
        name,
        code,
        pipelineUrl: `https://ci.example.com/${code}`,
        ...(trigger ? { e2eTriggerConfiguration: { enabled: true } } : {}),
      },
    });
  const shop = await app('Shop web', 'shop-web', true);
  await app('Checkout', 'checkout', false);
  await app('Back office', 'back-office', false);
  const row = (project: string, run: number, status: string) => ({
    project_name: project,
    run_number: run,
    created_at: `${today}T0${run}:00:00.000Z`,
    status,
    spec: `cypress/e2e/spec-${run}.cy.ts`,
    total_tests: 10,
    pass_tests: status === 'passed' ? 10 : 8,
    fail_tests: status === 'passed' ? 0 : 2,
    flaky_tests: run === 3 ? 1 : 0,
  });
  stack.cypress.rows = [
    row('Shop web', 1, 'passed'),
    row('Shop web', 2, 'failed'),
    row('Checkout', 3, 'passed'),
    row('Back office', 4, 'passed'),
    row('Back office', 5, 'passed'),
    row('Back office', 6, 'passed'),
    row('Back office', 7, 'failed'),
  ];
  const pulls: [number, Record<string, unknown>][] = [
    [1, { draft: true, created_at: daysAgo(10) }],
    [2, { mergeable_state: 'dirty', created_at: daysAgo(4) }],
    [3, { mergeable_state: 'clean', created_at: daysAgo(1) }],
    [4, { state: 'closed', merged: true, merged_at: daysAgo(1) }],
    [5, { state: 'closed' }],
  ];
  for (const [number, overrides] of pulls) {
    stack.github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', number, overrides));
    await stack.api('/api/pull_requests', {
      method: 'POST',
      body: { url: `https://github.com/acme/shop/pull/${number}` },
    });
  }
  for (const type of ['e2e_failure', 'e2e_success', 'pr_update', 'app_update', 'system', 'info']) {
    await stack.api('/api/notifications', {
      method: 'POST',
      body: {
        title: `A ${type} notification`,
        message: 'Details.',
        type,
        data: { appId: shop.body.data.id },
      },
    });
  }
  await stack.api('/api/to_do_list', { method: 'POST', body: { title: 'Overdue', dueDate: '2020-01-01' } });
  await stack.api('/api/to_do_list', { method: 'POST', body: { title: 'Due today', dueDate: today } });
  const done = await stack.api<{ id: number }>('/api/to_do_list', {
    method: 'POST',
    body: { title: 'Done' },
  });
  await stack.api(`/api/to_do_list/${done.body.data.id}`, { method: 'PUT', body: { isCompleted: true } });
  stack.jira.setIssues(manualQaJql(JIRA.project), [fakeJiraIssue(7, { labels: ['manual_qa', 'payments'] })]);
  stack.jira.setIssues(MY_TICKETS_JQL, [fakeJiraIssue(11, { status: { name: 'In Review' } })]);
  return shop.body.data.id;
}

describe.skipIf(!chromiumAvailable && !process.env.CI)('text contrast', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let shopId: number;
  beforeAll(async () => {
    ({ stack, browser, page } = await openSession());
    shopId = await seed(stack);
  }, 180_000);
  afterAll(() => closeSession(browser, stack));

  it('is at least 4.5:1 for every text on every page, light and dark', async () => {
    const paths = [
      '/',
      '/apps',
      '/pull-requests',
      '/tickets',
      '/todos',
      '/notifications',
      '/status',
      '/settings',
      `/apps/${shopId}/report?date=${today}`,
      '/no-such-page',
    ];
    const failures: (LowContrast & { where: string })[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of paths) {
        await openSignedIn(page, stack.baseUrl, path);
        await page.getByRole('heading', { level: 1 }).waitFor({ timeout: STEP });
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(300);
        for (const low of await lowContrast(page)) failures.push({ where: `${scheme} ${path}`, ...low });
      }
      // The sign-in page, with the error of a wrong key.
      await page.evaluate('localStorage.clear()');
      await page.goto(stack.baseUrl);
      await page.getByLabel('API key').fill('wrong');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor({ timeout: STEP });
      for (const low of await lowContrast(page)) failures.push({ where: `${scheme} sign-in`, ...low });
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('screenshots the seeded pages not shot elsewhere, for a person to look at', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    for (const [path, name] of [
      ['/', 'overview-seeded'],
      ['/todos', 'todos-seeded'],
      ['/tickets', 'tickets-seeded'],
    ] as const) {
      await openSignedIn(page, stack.baseUrl, path);
      await page.getByRole('heading', { level: 1 }).waitFor({ timeout: STEP });
      await page.waitForLoadState('networkidle');
      await screens(page, name);
    }
    expect(await page.getByRole('heading', { level: 1, name: 'Tickets' }).count()).toBe(1);
  }, 120_000);
});
