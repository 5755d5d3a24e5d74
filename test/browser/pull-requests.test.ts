import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePullRequest } from '../fakes/fake-github.js';
import { type Browser, chromiumAvailable, openSignedIn, type Stack } from './harness.js';
import { closeSession, openSession, STEP, textOf, waitText } from './steps.js';
import { screens } from './screens.js';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().replace(/\.\d+Z$/, 'Z');

/** The attention badges shown for one pull request, by the title GitHub gave it. */
async function statesOf(page: Page, title: string): Promise<string[]> {
  const item = page.getByRole('listitem').filter({ hasText: title });
  await item.waitFor({ timeout: STEP });
  return item
    .locator('[data-state]')
    .evaluateAll((badges) => badges.map((b) => b.getAttribute('data-state') ?? ''));
}

describe.skipIf(!chromiumAvailable && !process.env.CI)('pull requests, seeded start', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    ({ stack, browser, page } = await openSession());
    const pulls: [number, Record<string, unknown>][] = [
      // Opened on GitHub 10 days ago, even though it is added here today.
      [1, { title: 'Old draft', draft: true, mergeable_state: 'clean', created_at: daysAgo(10) }],
      [2, { title: 'Conflicting change', mergeable_state: 'dirty', created_at: daysAgo(4) }],
      [3, { title: 'Ready change', mergeable_state: 'clean', created_at: daysAgo(1) }],
      [
        4,
        {
          title: 'Merged change',
          state: 'closed',
          merged: true,
          merged_at: daysAgo(1),
          created_at: daysAgo(9),
        },
      ],
      [5, { title: 'Closed change', state: 'closed', created_at: daysAgo(20) }],
    ];
    for (const [number, overrides] of pulls) {
      stack.github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', number, overrides));
      const added = await stack.api('/api/pull_requests', {
        method: 'POST',
        body: { url: `https://github.com/acme/shop/pull/${number}` },
      });
      expect(added.status).toBe(201);
    }
  }, 180_000);
  afterAll(() => closeSession(browser, stack));

  it('shows the states that need attention, with the age counted from the opening on GitHub', async () => {
    await openSignedIn(page, stack.baseUrl, '/pull-requests');
    expect(await statesOf(page, 'Old draft')).toEqual(['draft', 'open-7']);
    expect(await statesOf(page, 'Conflicting change')).toEqual(['conflicts', 'open-3']);
    expect(await statesOf(page, 'Ready change')).toEqual(['ready']);
    expect(await statesOf(page, 'Merged change')).toEqual(['merged']);
    expect(await statesOf(page, 'Closed change')).toEqual(['closed']);
    const draft = page.getByRole('listitem').filter({ hasText: 'Old draft' });
    await waitText(draft, /opened/);
    await waitText(draft.locator('.age'), /^10 d/);
    await screens(page, 'pull-requests-seeded');
  }, 90_000);

  it('keeps the list filter in the address', async () => {
    await page.getByLabel('Show').selectOption('attention');
    await expect.poll(() => new URL(page.url()).searchParams.get('show')).toBe('attention');
    await page.reload();
    await page.getByRole('listitem').filter({ hasText: 'Old draft' }).waitFor({ timeout: STEP });
    expect(await page.getByLabel('Show').inputValue()).toBe('attention');
    expect(await page.getByRole('listitem').filter({ hasText: 'Merged change' }).count()).toBe(0);
    expect(await page.getByRole('listitem').filter({ hasText: 'Ready change' }).count()).toBe(1);
    await page.getByLabel('Show').selectOption('done');
    await page.getByRole('listitem').filter({ hasText: 'Merged change' }).waitFor({ timeout: STEP });
    expect(await page.getByRole('listitem').filter({ hasText: 'Old draft' }).count()).toBe(0);
    await page.getByLabel('Show').selectOption('all');
    await expect.poll(() => new URL(page.url()).search).toBe('');
  }, 90_000);

  it("says when GitHub's rate limit resets in human time, not as a timestamp", async () => {
    stack.github.rateLimitRemaining = 0;
    stack.github.setPull('acme', 'shop', fakePullRequest('acme', 'shop', 6, { title: 'Never read' }));
    await page.getByLabel('Pull request URL').fill('https://github.com/acme/shop/pull/6');
    await page.getByRole('button', { name: 'Track pull request' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'rate limit' });
    // The reset is an hour ahead, so near midnight it falls on the next day and the date is named too.
    await waitText(
      alert,
      /rate limit exhausted until (\d{1,2} \w{3} \d{4}, )?\d{1,2}:\d{2} \(in (1 hour|\d+ minutes)\)/,
    );
    expect(await textOf(alert)).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    await screens(page, 'pull-requests-rate-limit');
    stack.github.rateLimitRemaining = 5000;
  }, 90_000);
});

describe.skipIf(!chromiumAvailable && !process.env.CI)('pull requests, bare start', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => ({ stack, browser, page } = await openSession({ bare: true })), 180_000);
  afterAll(() => closeSession(browser, stack));

  it('an empty list invites to add one; without a GitHub token adding one explains why it failed', async () => {
    await openSignedIn(page, stack.baseUrl, '/pull-requests?show=attention');
    await waitText(page.locator('main'), /No pull requests tracked/);
    expect(await page.getByLabel('Show').inputValue()).toBe('attention');
    await page.getByLabel('Pull request URL').fill('https://github.com/acme/private/pull/9');
    await page.getByRole('button', { name: 'Track pull request' }).click();
    await waitText(page.getByRole('alert'), /GitHub/);
    await screens(page, 'pull-requests-bare');
  }, 90_000);
});
