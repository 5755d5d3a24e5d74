import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePullRequest } from '../fakes/fake-github.js';
import { fakeJiraIssue } from '../fakes/fake-jira.js';
import { MY_TICKETS_JQL, manualQaJql } from '../../src/modules/tracker/tracker.service.js';
import {
  type Browser,
  chromiumAvailable,
  JIRA,
  openSignedIn,
  screenshotBoth,
  type Stack,
} from './harness.js';
import {
  type DashboardSession,
  expectPhoneFriendly,
  hasText,
  openDashboard,
  visible,
} from './dashboard-session.js';
import { closeSession, STEP } from './steps.js';

/*
 * Pull requests, tickets, to-dos and notifications in the web dashboard, in one signed-in session.
 * Signing in and applications: dashboard-apps.test.ts.
 */
describe.skipIf(!chromiumAvailable && !process.env.CI)('web dashboard in Chromium: work items', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let go: DashboardSession['go'];

  beforeAll(async () => {
    ({ stack, browser, page, problems, go } = await openDashboard());
    await openSignedIn(page, stack.baseUrl);
  }, 180_000);

  // These pages are held to the rule of dashboard-apps.test.ts's last test: no script errors.
  afterAll(async () => {
    await closeSession(browser, stack);
    expect(problems).toEqual([]);
  });

  it('adds a pull request by URL and shows its GitHub details', async () => {
    stack.github.setPull(
      'acme',
      'shop',
      fakePullRequest('acme', 'shop', 42, { title: 'Speed up checkout', mergeable_state: 'clean' }),
    );
    await go('/pull-requests', 'Pull requests');
    await page.getByLabel('Pull request URL').fill('https://github.com/acme/shop/pull/42');
    await page.getByRole('button', { name: 'Track pull request' }).click();
    const item = page.getByRole('listitem').filter({ hasText: 'Speed up checkout' });
    await visible(item, STEP);
    await hasText(item, 'acme/shop#42');

    await page.getByLabel('Pull request URL').fill('https://example.com/not-a-pr');
    await page.getByRole('button', { name: 'Track pull request' }).click();
    await visible(page.locator('.field-error'), STEP);
    await screenshotBoth(page, 'pull-requests');

    await item.getByRole('button', { name: /Details/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Speed up checkout' });
    await hasText(dialog, 'octocat', STEP);
    await hasText(dialog, 'clean');
    await hasText(dialog, '+40');
    await screenshotBoth(page, 'pull-request-details');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await item.getByRole('button', { name: /Remove/ }).click();
    await page
      .getByRole('dialog', { name: /Stop tracking/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect.poll(() => item.count(), { timeout: STEP }).toBe(0);
    expect((await stack.api<unknown[]>('/api/pull_requests')).body.data).toEqual([]);
  }, 60_000);

  it('lists both tracker queries with links to the tickets', async () => {
    stack.jira.setIssues(manualQaJql(JIRA.project), [
      fakeJiraIssue(7, { summary: 'Verify the new checkout on Safari' }),
      fakeJiraIssue(8, { summary: 'Gift cards & vouchers', labels: ['manual_qa', 'payments'] }),
    ]);
    stack.jira.setIssues(MY_TICKETS_JQL, [
      fakeJiraIssue(11, { summary: 'Flaky login spec', status: { name: 'In Review' } }),
    ]);
    await go('/tickets', 'Tickets');
    const link = page.getByRole('link', { name: /QA-7/ });
    await visible(link, STEP);
    expect(await link.getAttribute('href')).toBe(`${stack.jira.url}/browse/QA-7`);
    await visible(page.getByRole('link', { name: /QA-11/ }));
    await screenshotBoth(page, 'tickets');

    // A failing tracker is a clear message in its own section, not a broken page.
    stack.jira.failWith = 500;
    await page.getByRole('button', { name: 'Refresh My tickets' }).click();
    const mine = page.getByRole('region', { name: /My tickets/ });
    await hasText(mine.getByRole('alert'), 'External service error');
    await screenshotBoth(page, 'tickets-error');
    stack.jira.failWith = undefined;
  }, 60_000);

  it('creates and completes a to-do, showing escaped titles as text', async () => {
    await stack.api('/api/to_do_list', {
      method: 'POST',
      body: { title: 'Renew the certificate', dueDate: '2020-01-01' },
    });
    await go('/todos', 'To-dos');
    await page.getByLabel('New to-do').fill('Fish & chips <b>friday</b>');
    await page.getByRole('button', { name: 'Add to-do' }).click();
    const item = page.getByRole('listitem').filter({ hasText: 'Fish & chips' });
    await visible(item, STEP);
    expect(await item.innerText()).not.toContain('&amp;');
    await hasText(page.getByRole('listitem').filter({ hasText: 'Renew the certificate' }), 'Overdue');

    await item.getByRole('checkbox').check();
    await expect.poll(() => item.getByRole('checkbox').isChecked()).toBe(true);
    await expect
      .poll(
        async () =>
          (await stack.api<{ title: string; isCompleted: boolean }[]>('/api/to_do_list')).body.data.find(
            (t) => t.title.startsWith('Fish'),
          )?.isCompleted,
      )
      .toBe(true);
    await screenshotBoth(page, 'todos', { dark: true });
  }, 60_000);

  it('marks a notification read and updates the unread count', async () => {
    for (const [title, type] of [
      ['Checkout E2E failing', 'e2e_failure'],
      ['2 tickets need manual testing', 'info'],
    ]) {
      await stack.api('/api/notifications', { method: 'POST', body: { title, message: `${title}.`, type } });
    }
    // Creating applications above also produced app_update notifications.
    const unread = (await stack.api<unknown[]>('/api/notifications?isRead=false')).body.data.length;
    expect(unread).toBeGreaterThanOrEqual(2);
    await go('/notifications', 'Notifications');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await visible(nav.getByLabel(`${unread} unread`));
    await screenshotBoth(page, 'notifications', { dark: true });

    const item = page.getByRole('listitem').filter({ hasText: 'Checkout E2E failing' });
    await item.getByRole('button', { name: /Mark read/ }).click();
    await expect
      .poll(() => item.getByRole('button', { name: /Mark read/ }).count(), { timeout: STEP })
      .toBe(0);
    await visible(nav.getByLabel(`${unread - 1} unread`));
    const { body } = await stack.api<{ title: string }[]>('/api/notifications?isRead=true');
    expect(body.data.map((n) => n.title)).toEqual(['Checkout E2E failing']);
  }, 60_000);

  it('fits phone width with the pull requests, tickets, to-dos and notifications in their lists', async () => {
    await expectPhoneFriendly(page, go);
  }, 60_000);
});
