import { createHmac } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeWebhookReceiver, startFakeWebhookReceiver } from '../fakes/fake-webhook-receiver.js';
import {
  type Browser,
  chromiumAvailable,
  openSignedIn,
  screenshotBoth,
  type Stack,
  VIEWPORTS,
} from './harness.js';
import { closeSession, openSession, STEP } from './steps.js';

const SECRET = 'settings-page-secret-42';
const visible = (locator: Locator, timeout = STEP) => locator.first().waitFor({ state: 'visible', timeout });

describe.skipIf(!chromiumAvailable && !process.env.CI)('Settings page: webhooks in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let receiver: FakeWebhookReceiver;
  const problems: string[] = [];

  beforeAll(async () => {
    ({ stack, browser, page } = await openSession({ bare: true }));
    receiver = await startFakeWebhookReceiver();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 180_000);

  afterAll(async () => {
    await closeSession(browser, stack);
    await receiver?.close();
  });

  it('adds a signed webhook, sends a test, shows its deliveries, edits and deletes it', async () => {
    await openSignedIn(page, stack.baseUrl, '/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await visible(page.getByText('No webhooks yet.'));

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    await dialog.getByLabel('Name').fill('Ops bridge');
    await dialog.getByLabel('Kind').selectOption('generic');
    await dialog.getByLabel('Webhook URL').fill('not a url');
    await dialog.getByLabel('Signing secret').fill(SECRET);
    await dialog.getByLabel('Reminders').uncheck();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    // The API's message lands at the field.
    await visible(
      dialog
        .getByText(/Webhook URL/i)
        .locator('..')
        .locator('.field-error'),
    );
    await dialog.getByLabel('Webhook URL').fill(receiver.url);
    await dialog.getByRole('button', { name: 'Add webhook' }).click();

    const item = page.getByRole('listitem').filter({ hasText: 'Ops bridge' });
    await visible(item);
    const text = await item.innerText();
    expect(text).toContain(`${receiver.origin}/…`);
    expect(text).not.toContain(new URL(receiver.url).pathname);
    const [stored] = (await stack.api<{ types: string[] }[]>('/api/webhooks')).body.data;
    expect(stored!.types).toEqual(['e2e_failure', 'e2e_success', 'pr_update', 'app_update', 'system']);

    await item.getByRole('button', { name: /Send test/ }).click();
    await visible(page.getByRole('status').getByText(/Test message delivered/));
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const signature = `sha256=${createHmac('sha256', SECRET).update(request!.rawBody).digest('hex')}`;
    expect(request!.headers['x-dashboard-signature']).toBe(signature);
    await visible(item.getByText('delivered'));

    // A real notification reaches it too, and both show in the deliveries list.
    await stack.api('/api/notifications', {
      method: 'POST',
      body: { title: 'Checkout failing', message: 'Last run failed', type: 'e2e_failure' },
    });
    await receiver.waitFor(2);
    await item.getByRole('button', { name: /Deliveries/ }).click();
    const history = page.getByRole('dialog', { name: /Recent deliveries/ });
    await visible(history.getByRole('row', { name: /Test message/ }));
    await visible(history.getByRole('row', { name: /#\d+/ }));
    expect(await history.getByRole('row').count()).toBe(3);
    await screenshotBoth(page, 'settings-deliveries', { dark: true });
    await history.getByRole('button', { name: 'Close' }).click();
    await screenshotBoth(page, 'settings', { dark: true });

    await item.getByRole('button', { name: /Edit/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit webhook' });
    await edit.getByLabel('Name').fill('Ops room');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const renamed = page.getByRole('listitem').filter({ hasText: 'Ops room' });
    await visible(renamed);
    const [afterEdit] = (await stack.api<{ name: string }[]>('/api/webhooks')).body.data;
    expect(afterEdit).toMatchObject({ name: 'Ops room' });
    // Saving without touching the secret keeps signing with it.
    await renamed.getByRole('button', { name: /Send test/ }).click();
    await receiver.waitFor(3);
    const resigned = receiver.received[2]!;
    expect(resigned.headers['x-dashboard-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(resigned.rawBody).digest('hex')}`,
    );

    await renamed.getByRole('button', { name: /Delete/ }).click();
    await page
      .getByRole('dialog', { name: 'Delete webhook?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await visible(page.getByText('No webhooks yet.'));
    expect((await stack.api<unknown[]>('/api/webhooks')).body.data).toEqual([]);
  }, 90_000);

  it('fits phone width with every control named', async () => {
    await stack.api('/api/webhooks', {
      method: 'POST',
      body: { url: 'https://hooks.slack.com/services/T0/B0/secret', kind: 'slack', name: '#qa-alerts' },
    });
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(new URL('/settings', stack.baseUrl).href);
    await visible(page.getByRole('listitem').filter({ hasText: '#qa-alerts' }));
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    const unnamed = await page.locator('input, select, textarea, button, a[href]').evaluateAll((elements) =>
      elements
        .filter((el) => {
          const control = el as unknown as { labels?: { length: number } | null };
          return !(
            (control.labels?.length ?? 0) > 0 ||
            !!el.getAttribute('aria-label') ||
            (el.textContent ?? '').trim() !== ''
          );
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(unnamed).toEqual([]);
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(problems).toEqual([]);
  }, 60_000);
});
