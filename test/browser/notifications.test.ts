import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePullRequest } from '../fakes/fake-github.js';
import { fakeJiraIssue } from '../fakes/fake-jira.js';
import { manualQaJql } from '../../src/modules/tracker/tracker.service.js';
import { type Browser, chromiumAvailable, JIRA, openSignedIn, type Stack } from './harness.js';
import { closeSession, openSession, STEP, waitText } from './steps.js';
import { screens } from './screens.js';

const today = new Date().toISOString().slice(0, 10);

async function open(bare: boolean) {
  const { stack, browser, page } = await openSession({ bare });
  const created = await stack.api<{ id: number }>('/api/apps', {
    method: 'POST',
    body: { name: 'Shop web', code: 'shop-web', pipelineUrl: 'https://ci.example.com/shop' },
  });
  const appId = created.body.data.id;
  const post = (body: Record<string, unknown>) => stack.api('/api/notifications', { method: 'POST', body });
  for (const run of [11, 12, 13]) {
    await post({
      title: 'E2E tests failing: Shop web',
      message: `Run #${run} of Shop web failed.`,
      type: 'e2e_failure',
      data: { appId, appName: 'Shop web', runId: run },
    });
  }
  await post({
    title: 'Manual testing reminder',
    message: '1 ticket waits for manual testing.',
    type: 'info',
    data: { count: 1, keys: ['QA-7'] },
  });
  return { stack, browser, page, appId, post };
}

const item = (page: Page, text: string) => page.locator('[data-notification]').filter({ hasText: text });

describe.skipIf(!chromiumAvailable && !process.env.CI)('notifications, seeded start', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let appId: number;
  beforeAll(async () => {
    let post: (body: Record<string, unknown>) => Promise<unknown>;
    ({ stack, browser, page, appId, post } = await open(false));
    stack.jira.setIssues(manualQaJql(JIRA.project), [fakeJiraIssue(7, { summary: 'Check Safari' })]);
    stack.github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', 42, { title: 'Speed up checkout' }));
    const pr = await stack.api<{ id: number }>('/api/pull_requests', {
      method: 'POST',
      body: { url: 'https://github.com/acme/shop/pull/42' },
    });
    await post({
      title: 'Pull request ready to merge',
      message: 'acme/shop#42 can be merged.',
      type: 'pr_update',
      data: { prId: pr.body.data.id, prNumber: 42, status: 'open', event: 'ready' },
    });
  }, 180_000);
  afterAll(() => closeSession(browser, stack));

  it('links each notification to its app report, pull request or ticket', async () => {
    await openSignedIn(page, stack.baseUrl, '/notifications');
    const failure = item(page, 'Run #13');
    await failure.waitFor({ timeout: STEP });
    expect(await failure.getByRole('link', { name: 'Report of Shop web' }).getAttribute('href')).toBe(
      `/apps/${appId}/report?date=${today}`,
    );
    const pr = item(page, 'ready to merge').getByRole('link', { name: /Pull request #42/ });
    await expect
      .poll(() => pr.getAttribute('href'), { timeout: STEP })
      .toBe('https://github.com/acme/shop/pull/42');
    const ticket = item(page, 'Manual testing reminder').getByRole('link', { name: /QA-7/ });
    await expect
      .poll(() => ticket.getAttribute('href'), { timeout: STEP })
      .toBe(`${stack.jira.url}/browse/QA-7`);
  }, 90_000);

  it('groups the repeated notifications of one app under the newest', async () => {
    const groups = page.locator('.notification-group');
    const shop = groups.filter({ hasText: 'Run #13' });
    await waitText(shop.locator('summary'), /2 earlier E2E failure notifications of Shop web \(2 unread\)/);
    expect(await shop.locator('[data-notification]').count()).toBe(3);
    expect(await shop.getByText('Run #11 of Shop web failed.').isVisible()).toBe(false);
    await shop.locator('summary').click();
    expect(await shop.getByText('Run #11 of Shop web failed.').isVisible()).toBe(true);
    await screens(page, 'notifications-seeded');
  }, 90_000);

  it('keeps the filters in the address and marks all read with one button', async () => {
    await page.getByLabel('Show').selectOption('false');
    await expect.poll(() => new URL(page.url()).searchParams.get('read')).toBe('false');
    await page.reload();
    await item(page, 'Run #13').waitFor({ timeout: STEP });
    expect(await page.getByLabel('Show').inputValue()).toBe('false');

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByLabel(/\d+ unread/).waitFor({ timeout: STEP });
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await waitText(
      page.getByRole('status').filter({ hasText: 'marked read' }),
      /\d+ notifications marked read/,
    );
    await waitText(page.locator('main'), /No notification matches these filters/);
    await expect.poll(() => nav.getByLabel(/\d+ unread/).count(), { timeout: STEP }).toBe(0);
    const unread = await stack.api<unknown[]>('/api/notifications?isRead=false');
    expect(unread.body.data).toEqual([]);
  }, 90_000);
});

describe.skipIf(!chromiumAvailable && !process.env.CI)('notifications, bare start', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let appId: number;
  beforeAll(async () => ({ stack, browser, page, appId } = await open(true)), 180_000);
  afterAll(() => closeSession(browser, stack));

  it('links to the app report, and to the Tickets page while the tracker is not set up', async () => {
    await openSignedIn(page, stack.baseUrl, '/notifications');
    await item(page, 'Run #13').waitFor({ timeout: STEP });
    expect(
      await item(page, 'Run #13').getByRole('link', { name: 'Report of Shop web' }).getAttribute('href'),
    ).toBe(`/apps/${appId}/report?date=${today}`);
    const ticket = item(page, 'Manual testing reminder').getByRole('link', { name: 'QA-7' });
    await expect.poll(() => ticket.getAttribute('href'), { timeout: STEP }).toBe('/tickets');
    await screens(page, 'notifications-bare');
  }, 90_000);

  it('"Mark all read" with a type filter marks only that type', async () => {
    await page.getByLabel('Type').selectOption('e2e_failure');
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('e2e_failure');
    await page.getByRole('button', { name: 'Mark all E2E failure read' }).click();
    await waitText(
      page.getByRole('status').filter({ hasText: 'marked read' }),
      /3 notifications marked read/,
    );
    const unread = await stack.api<{ type: string }[]>('/api/notifications?isRead=false');
    expect(unread.body.data.map((n) => n.type)).not.toContain('e2e_failure');
    expect(unread.body.data.map((n) => n.type)).toContain('info');
  }, 90_000);
});
