import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY } from '../support/test-app.js';
import { type Browser, chromiumAvailable, type Stack, VIEWPORTS } from './harness.js';
import { seriousViolations, sidewaysOverflowCause } from './page-checks.js';
import { screens } from './screens.js';
import { closeSession, openSession, STEP, waitText } from './steps.js';

const visible = (locator: Locator, timeout = STEP) => locator.first().waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = STEP) => locator.first().waitFor({ state: 'detached', timeout });

/** No serious accessibility violation, and nothing scrolls sideways at phone width. */
async function checkPage(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
  const before = page.viewportSize();
  await page.setViewportSize(VIEWPORTS.phone);
  await page.waitForTimeout(150);
  expect(await sidewaysOverflowCause(page)).toBe('none');
  if (before) await page.setViewportSize(before);
}

/** Signs in through the form, as a person does. */
async function signIn(page: Page, baseUrl: string, key: string) {
  await page.goto(new URL('/', baseUrl).href);
  await page.evaluate('localStorage.clear()');
  await page.goto(new URL('/', baseUrl).href);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.skipIf(!chromiumAvailable && !process.env.CI)(
  'API keys in Chromium: Settings and the read-only UI',
  () => {
    let stack: Stack;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      ({ stack, browser, page } = await openSession({ bare: true }));
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: stack.baseUrl,
      });
      for (const code of ['shop', 'blog']) {
        await stack.api('/api/apps', {
          method: 'POST',
          body: {
            name: code === 'shop' ? 'Shop' : 'Blog',
            code,
            pipelineUrl: `https://ci.example.com/${code}`,
          },
        });
      }
      await stack.api('/api/to_do_list', { method: 'POST', body: { title: 'Look at the flaky cart spec' } });
      await stack.api('/api/notifications', {
        method: 'POST',
        body: { title: 'Checkout failing', message: 'Last run failed', type: 'e2e_failure' },
      });
      await stack.api('/api/quarantine', {
        method: 'POST',
        body: { appId: 1, spec: 'cart.cy.ts', reason: 'Payment sandbox down' },
      });
    }, 180_000);

    afterAll(async () => {
      await closeSession(browser, stack);
      expect(problems).toEqual([]);
    });

    it('makes an upload key (shown once, copy, CLI line), lists it with its use, and revokes it after confirmation', async () => {
      await signIn(page, stack.baseUrl, TEST_KEY);
      await page.getByRole('link', { name: 'Settings' }).first().click();
      const section = page.getByRole('region', { name: 'API keys' });
      await visible(section.getByText('No API keys yet.'));

      await section.getByRole('button', { name: 'New key' }).click();
      let dialog = page.getByRole('dialog', { name: 'New API key' });
      await dialog.getByLabel('Name').fill('Shop CI');
      await dialog.getByLabel('Scope').selectOption('upload');
      await dialog.getByLabel('Shop (shop)').check();
      // An expiry in the past: the API's message lands at the field, nothing is made.
      await dialog.getByLabel('Expires (optional)').fill('2020-01-01T10:00');
      await dialog.getByRole('button', { name: 'Create key' }).click();
      await waitText(dialog.locator('.field-error'), /Expires must be in the future/);
      expect((await stack.api<unknown[]>('/api/keys')).body.data).toEqual([]);
      await dialog.getByLabel('Expires (optional)').fill('');
      await dialog.getByRole('button', { name: 'Create key' }).click();

      dialog = page.getByRole('dialog', { name: 'Key “Shop CI” created' });
      await visible(dialog.getByText('Copy the key now.'));
      const key = (await dialog.locator('.copy-value').first().textContent()) ?? '';
      expect(key).toMatch(/^tdk_[A-Za-z0-9_-]{43}$/);
      await waitText(dialog.locator('.copy-value').nth(1), `DASHBOARD_API_KEY=${key}`);
      await dialog.getByRole('button', { name: /Copy CLI line/ }).click();
      await visible(dialog.getByRole('button', { name: /Copied/ }));
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(`DASHBOARD_API_KEY=${key}`);
      await dialog.getByRole('button', { name: /Copy Key/ }).click();
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
      await screens(page, 'keys-created');
      await checkPage(page);
      await dialog.getByRole('button', { name: 'Done' }).click();

      const item = section.getByRole('listitem').filter({ hasText: 'Shop CI' });
      await visible(item);
      let text = await item.innerText();
      expect(text).toContain(`${key.slice(0, 12)}…`);
      expect(text).not.toContain(key.slice(12));
      expect(text).toMatch(/Upload/);
      expect(text).toContain('shop');
      expect(text).toMatch(/Last used never/);
      expect(text).toMatch(/Expires never/);

      // CI uses it; the list says so after a reload. It is shown nowhere in full.
      const upload = await fetch(new URL('/api/test_results?app=shop&run=1', stack.baseUrl), {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/xml' },
        body: '<testsuite name="cart" tests="1"><testcase classname="cart" name="adds" file="cart.spec.ts"/></testsuite>',
      });
      expect(upload.status).toBe(201);
      await stack.api('/api/keys', { method: 'POST', body: { name: 'Readers', scope: 'read' } });
      await page.reload();
      await visible(section.getByRole('listitem').filter({ hasText: 'Readers' }));
      text = await item.innerText();
      expect(text).not.toMatch(/Last used never/);
      expect(await page.content()).not.toContain(key.slice(12));
      await screens(page, 'keys-page');
      await checkPage(page);

      await item.getByRole('button', { name: /Revoke/ }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke this key?' });
      await visible(confirm.getByText(/Shop CI/));
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      expect(
        (await fetch(new URL('/api/quarantine', stack.baseUrl), { headers: { 'x-api-key': key } })).status,
      ).toBe(200);
      await item.getByRole('button', { name: /Revoke/ }).click();
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await visible(item.getByText('revoked'));
      await gone(item.getByRole('button', { name: /Revoke/ }));
      expect(
        (await fetch(new URL('/api/quarantine', stack.baseUrl), { headers: { 'x-api-key': key } })).status,
      ).toBe(401);
    });

    it('a read key signs in and sees every page without the buttons that change something, with a note', async () => {
      const created = await stack.api<{ key: string }>('/api/keys', {
        method: 'POST',
        body: { name: 'Wallboard', scope: 'read' },
      });
      await signIn(page, stack.baseUrl, created.body.data.key);
      const note = page.getByRole('note');
      await waitText(note, /Read-only key \(Wallboard\): you can look at everything here, but not change it/);

      const checks: [string, string, RegExp[]][] = [
        ['/', 'Overview', [/^Regenerate$/]],
        ['/apps', 'Applications', [/Add application/, /^Edit/, /^Delete/, /Run E2E/, /Watching/]],
        ['/todos', 'To-dos', [/Add to-do/, /^Edit/, /^Delete/, /Clear completed/]],
        ['/pull-requests', 'Pull requests', [/Track pull request/, /^Remove/]],
        ['/quarantine', 'Quarantine', [/^Lift/]],
        ['/notifications', 'Notifications', [/Mark all read/, /Mark read/, /^Delete/]],
        ['/settings', 'Settings', [/Add webhook/, /New key/, /Revoke/]],
      ];
      for (const [path, heading, buttons] of checks) {
        await page.getByRole('link', { name: heading }).first().click();
        await visible(page.getByRole('heading', { level: 1, name: heading }));
        await page.waitForLoadState('networkidle');
        await visible(note);
        for (const name of buttons) {
          expect(await page.getByRole('button', { name }).count(), `${path}: ${String(name)}`).toBe(0);
          expect(await page.getByRole('switch', { name }).count(), `${path}: ${String(name)}`).toBe(0);
        }
      }
      // What is there to read is there.
      await page.getByRole('link', { name: 'Applications' }).first().click();
      await visible(page.getByRole('row').filter({ hasText: 'Shop' }));
      await page.getByRole('link', { name: 'Quarantine' }).first().click();
      await visible(page.getByText('cart.cy.ts'));
      await page.getByRole('link', { name: 'Settings' }).first().click();
      await visible(page.getByRole('heading', { name: 'Webhooks' }));
      expect(await page.getByRole('region', { name: 'API keys' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Applications' }).first().click();
      await visible(page.getByRole('row').filter({ hasText: 'Shop' }));
      await screens(page, 'read-only-apps');
      await checkPage(page);
    });

    it('an upload key is told at sign-in that it is for CI, and does not sign in', async () => {
      const created = await stack.api<{ key: string }>('/api/keys', {
        method: 'POST',
        body: { name: 'Blog CI', scope: 'upload', apps: ['blog'] },
      });
      await signIn(page, stack.baseUrl, created.body.data.key);
      await waitText(page.getByRole('alert'), /“Blog CI” is an upload key/);
      expect(await page.evaluate('localStorage.getItem("dashboard.apiKey")')).toBeNull();
      await visible(page.getByRole('button', { name: 'Sign in' }));
    });
  },
);
