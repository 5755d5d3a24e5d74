import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY } from '../support/test-app.js';
import { type Browser, chromiumAvailable, type Stack } from './harness.js';
import { closeSession, openSession, waitText } from './steps.js';
import { screens } from './screens.js';

async function tryKey(page: Page, key: string) {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** With the default of 3 failures per window: 2, 1, then 0 attempts left, then a block. */
function signInSuite(bare: boolean) {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => ({ stack, browser, page } = await openSession({ bare })), 180_000);
  afterAll(() => closeSession(browser, stack));

  it('after a wrong key says how many attempts remain before the address is blocked', async () => {
    await page.goto(stack.baseUrl);
    const alert = page.getByRole('alert');
    await tryKey(page, 'wrong-1');
    await waitText(alert, /not valid.*2 attempts remaining before this address is blocked/);
    if (!bare) await screens(page, 'sign-in-wrong-key');
    await tryKey(page, 'wrong-2');
    await waitText(alert, /1 attempt remaining before this address is blocked/);
    await tryKey(page, 'wrong-3');
    await waitText(alert, /The next wrong key blocks this address/);
  }, 90_000);

  it('while blocked says until when, and does not sign in even with the right key', async () => {
    await tryKey(page, 'wrong-4');
    const alert = page.getByRole('alert');
    await waitText(alert, /blocked until (\d{1,2} \w{3} \d{4}, )?\d{1,2}:\d{2}\. Try again in 30 minutes/);
    if (!bare) await screens(page, 'sign-in-blocked');
    // The form stays, with the block explained, instead of opening on empty lists.
    expect(await page.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
    await page.getByLabel('API key').fill(TEST_KEY);
    expect(await page.getByRole('heading', { level: 1, name: 'Overview' }).count()).toBe(0);
  }, 90_000);
}

describe.skipIf(!chromiumAvailable && !process.env.CI)('sign-in, seeded start', () => signInSuite(false));
describe.skipIf(!chromiumAvailable && !process.env.CI)('sign-in, bare start', () => signInSuite(true));
