import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromiumAvailable, openSignedIn, type Stack } from './harness.js';
import { NAV_PAGES, settle, walkPages } from './page-checks.js';
import { screens } from './screens.js';
import { closeSession, openSession, STEP, waitText } from './steps.js';
import { openDoor } from './tcp-door.js';

/*
 * A bare start (no integration set, nothing stored): the first-run checklist, grouped notifications,
 * an unknown application, and every page at 390 px and 1440 px, light and dark, without sideways
 * scroll or a serious accessibility violation.
 */
describe.skipIf(!chromiumAvailable && !process.env.CI)('bare start at a glance', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    ({ stack, browser, page } = await openSession({ bare: true }));
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 180_000);
  afterAll(() => closeSession(browser, stack));

  it('shows a first-run checklist that ticks itself as the application is added', async () => {
    await openSignedIn(page, stack.baseUrl, '/');
    const checklist = page.getByTestId('first-run-checklist');
    await checklist.waitFor({ timeout: STEP });
    const step = (n: number) => checklist.locator('.checklist-step').nth(n);
    expect(await step(0).getAttribute('data-done')).toBe('false');
    expect(await step(1).getAttribute('data-done')).toBe('false');
    expect(await step(2).getAttribute('data-done')).toBe('false');
    // The upload line to copy, and what the application's name must match.
    await waitText(step(0), /npx dashboard upload results\.xml --app <code> --run <n>/);
    await waitText(step(1), /name must equal the Cypress project/);
    await screens(page, 'glance-first-run');

    for (const name of ['Shop web', 'Back office', 'Admin']) {
      const created = await stack.api('/api/apps', {
        method: 'POST',
        body: { name, code: name.toLowerCase().replace(/ /g, '-'), pipelineUrl: 'https://ci.example.com/p' },
      });
      expect(created.status).toBe(201);
    }
    // The page looks again when the tab regains focus (and every 10 s): no reload, no click.
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await expect.poll(() => step(1).getAttribute('data-done'), { timeout: STEP }).toBe('true');
    expect(await step(0).getAttribute('data-done')).toBe('false');
  }, 90_000);

  it('folds the notifications of applications added within a minute into one entry', async () => {
    await openSignedIn(page, stack.baseUrl, '/notifications');
    const groups = page.locator('.notification-group');
    await waitText(groups.first(), /2 earlier Application notifications/);
    expect(await groups.count()).toBe(1);
    await screens(page, 'glance-notifications-grouped');
  }, 60_000);

  it('says "Application not found" for an unknown application id', async () => {
    await openSignedIn(page, stack.baseUrl, '/apps/9999/report');
    await page.getByRole('heading', { level: 1, name: 'Application not found' }).waitFor({ timeout: STEP });
    expect(await page.getByLabel('Report date').count()).toBe(0);
  }, 60_000);

  it('keeps the phone navigation in one row, with a menu for the other pages', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openSignedIn(page, stack.baseUrl, '/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const visibleLinks = nav.locator('a.nav-link:visible, summary:visible');
    await expect.poll(() => visibleLinks.count(), { timeout: STEP }).toBe(4);
    const tops = await Promise.all(
      (await visibleLinks.all()).map(async (link) => (await link.boundingBox())!.y),
    );
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(4);
    await nav.getByText('More').click();
    await nav.getByRole('link', { name: 'Status' }).click();
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor({ timeout: STEP });
    // The menu closed, and its button names the page it leads to now.
    expect(await nav.locator('details').getAttribute('open')).toBeNull();
    await waitText(nav.locator('summary'), /Status/);
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);

  it('no page scrolls sideways at 390 px or has a serious accessibility violation, light and dark', async () => {
    await openSignedIn(page, stack.baseUrl, '/');
    await settle(page);
    const problems = await walkPages(page, stack.baseUrl, [
      ...NAV_PAGES,
      '/apps/1/report',
      '/apps/9999/report',
    ]);
    expect(problems).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 150_000);

  it('with the server stopped shows one bar and retries, and recovers by itself when it is back', async () => {
    // The page talks to the server through a door that is shut as a stopped server is: refused.
    const door = await openDoor(stack.baseUrl);
    try {
      await openSignedIn(page, door.url, '/notifications');
      const shown = page.locator('.notification-group, .empty');
      await shown.first().waitFor({ timeout: STEP });
      const before = await shown.allTextContents();
      await door.shut();
      // The unread count is asked for again when the tab regains focus.
      await page.evaluate("window.dispatchEvent(new Event('focus'))");
      const bar = page.getByTestId('connection-bar');
      await waitText(bar, /Connection to the dashboard lost — retrying in \d+ s/);
      await waitText(bar, /The dashboard server is not answering\./);
      // What was shown stays.
      expect(await shown.allTextContents()).toEqual(before);
      await screens(page, 'glance-server-stopped');

      await door.open();
      const back = Date.now();
      await bar.waitFor({ state: 'detached', timeout: 6000 });
      expect(Date.now() - back).toBeLessThan(5000);
      await screens(page, 'glance-server-back');
    } finally {
      await door.shut();
    }
  }, 60_000);
});
