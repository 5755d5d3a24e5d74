import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities } from '../../web/src/lib/text.js';
import { type Browser, chromiumAvailable, CHROMIUM, openSignedIn, type Stack } from './harness.js';
import { screens } from './screens.js';
import { closeSession, cypressRow, openSession, STEP, waitText } from './steps.js';

if (!chromiumAvailable && !process.env.CI) {
  console.warn(`browser tests SKIPPED: ${CHROMIUM} is missing (apt-get install chromium)`);
}

const visible = (locator: Locator) => locator.first().waitFor({ state: 'visible', timeout: STEP });
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const today = dayOffset(0);
const yesterday = dayOffset(-1);
const CHECKOUT = 'cypress/e2e/checkout.cy.ts';
const SEARCH = 'cypress/e2e/search.cy.ts';

interface Quarantine {
  id: number;
  spec: string;
  reason: string;
  ticketKey: string | null;
  liftedReason: string | null;
}

describe.skipIf(!chromiumAvailable && !process.env.CI)('known failures in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let shopId: number;
  const problems: string[] = [];

  beforeAll(async () => {
    ({ stack, browser, page } = await openSession());
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    shopId = (
      await stack.api<{ id: number }>('/api/apps', {
        method: 'POST',
        body: { name: 'shop', code: 'shop-code', pipelineUrl: 'https://ci.example.com/shop' },
      })
    ).body.data.id;
    stack.cypress.rows = [
      cypressRow('shop', 1, 'passed', `${yesterday}T08:00:00.000Z`, { spec: CHECKOUT }),
      cypressRow('shop', 1, 'passed', `${yesterday}T08:00:00.000Z`, { spec: SEARCH }),
      cypressRow('shop', 2, 'failed', `${today}T06:00:00.000Z`, { spec: CHECKOUT }),
      cypressRow('shop', 2, 'failed', `${today}T06:00:00.000Z`, { spec: SEARCH }),
    ];
  }, 180_000);

  afterAll(() => closeSession(browser, stack));

  it('quarantines a failing spec from the app report: it moves to "Known failures" with its ticket', async () => {
    await openSignedIn(page, stack.baseUrl, `/apps/${shopId}/report?date=${today}`);
    const failing = page.getByTestId('failing-specs');
    await waitText(failing, new RegExp(`${CHECKOUT}[\\s\\S]*${SEARCH}|${SEARCH}[\\s\\S]*${CHECKOUT}`));
    await page.getByRole('button', { name: `Quarantine ${CHECKOUT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Quarantine ${CHECKOUT}` });
    await visible(dialog);
    await dialog.getByLabel('Reason').fill('Payment sandbox is down');
    await dialog.getByLabel('Ticket').fill('shop-12');
    await dialog.getByRole('button', { name: 'Quarantine', exact: true }).click();

    const known = page.getByTestId('known-failures');
    await waitText(known, /SHOP-12/);
    await waitText(known, new RegExp(CHECKOUT));
    await waitText(known, /Payment sandbox is down/);
    await expect.poll(() => failing.textContent()).not.toContain(CHECKOUT);
    expect(await failing.textContent()).toContain(SEARCH);

    const stored = await stack.api<Quarantine[]>('/api/quarantine?active=true');
    expect(stored.body.data).toEqual([
      expect.objectContaining({
        appId: shopId,
        spec: CHECKOUT,
        reason: 'Payment sandbox is down',
        ticketKey: 'SHOP-12',
      }),
    ]);
    await screens(page, 'app-report-known-failures');
  }, 60_000);

  it('shows a ticket key the API refuses next to its field, and keeps the dialog open', async () => {
    await page.getByRole('button', { name: `Quarantine ${SEARCH}` }).click();
    const dialog = page.getByRole('dialog', { name: `Quarantine ${SEARCH}` });
    await dialog.getByLabel('Reason').fill('Search index rebuild');
    await dialog.getByLabel('Ticket').fill('not a ticket');
    await dialog.getByRole('button', { name: 'Quarantine', exact: true }).click();
    await waitText(dialog.locator('.field-error'), /Ticket/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect((await stack.api<Quarantine[]>('/api/quarantine')).body.data).toHaveLength(1);
  }, 60_000);

  it('creates a to-do pre-filled with "Fix <spec> (<app>)" and a link back to the app report', async () => {
    await page.getByRole('button', { name: `Create to-do for ${SEARCH}` }).click();
    const dialog = page.getByRole('dialog', { name: `To-do for ${SEARCH}` });
    await visible(dialog);
    expect(await dialog.getByLabel('Title').inputValue()).toBe(`Fix ${SEARCH} (shop)`);
    await dialog.getByRole('button', { name: 'Create to-do' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // The known failure's to-do names its ticket.
    await page
      .getByTestId('known-failures')
      .getByRole('button', { name: `Create to-do for ${CHECKOUT}` })
      .click();
    const knownDialog = page.getByRole('dialog', { name: `To-do for ${CHECKOUT}` });
    await visible(knownDialog);
    expect(await knownDialog.getByLabel('Notes').inputValue()).toContain('SHOP-12');
    await knownDialog.getByRole('button', { name: 'Create to-do' }).click();
    await expect.poll(() => knownDialog.isVisible()).toBe(false);

    const todos = (
      await stack.api<{ title: string; link: string | null; description: string | null }[]>('/api/to_do_list')
    ).body.data;
    const bySpec = (spec: string) =>
      todos.find((todo) => decodeEntities(todo.title) === `Fix ${spec} (shop)`);
    expect(bySpec(SEARCH)?.link).toBe(`${stack.baseUrl}/apps/${shopId}/report?date=${today}`);
    expect(bySpec(CHECKOUT)?.description).toContain('Ticket: SHOP-12');
  }, 60_000);

  it('lists active and lifted quarantines with their reasons on the Quarantine page, and lifts one', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Quarantine' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/quarantine');
    const active = page.getByTestId('active-quarantines');
    await waitText(active, new RegExp(CHECKOUT));
    await waitText(active, /Payment sandbox is down[\s\S]*SHOP-12/);
    await waitText(page.getByTestId('lifted-quarantines'), /None lifted yet/);
    await screens(page, 'quarantine');

    await active.getByRole('button', { name: `Lift the quarantine of ${CHECKOUT}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Lift the quarantine?' });
    await confirm.getByRole('button', { name: 'Lift' }).click();
    const lifted = page.getByTestId('lifted-quarantines');
    await waitText(lifted, new RegExp(`${CHECKOUT}[\\s\\S]*Payment sandbox is down[\\s\\S]*Lifted by hand`));
    await waitText(active, /No known failures/);
    const stored = await stack.api<Quarantine[]>('/api/quarantine?active=false');
    expect(stored.body.data.map((q) => q.liftedReason)).toEqual(['manual']);
    expect(problems).toEqual([]);
  }, 60_000);
});
