import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, CHROMIUM, chromiumAvailable, type Stack } from './harness.js';
import { closeSession, openSession, STEP, waitText } from './steps.js';
import { TEST_KEY } from '../support/test-app.js';

if (!chromiumAvailable && !process.env.CI) {
  console.warn(`browser tests SKIPPED: ${CHROMIUM} is missing (apt-get install chromium)`);
}

describe.skipIf(!chromiumAvailable && !process.env.CI)('application form: repository URL in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ stack, browser, page } = await openSession());
    await page.goto(stack.baseUrl);
    await page.getByLabel('API key').fill(TEST_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: STEP });
  }, 180_000);
  afterAll(() => closeSession(browser, stack));

  const appsPage = async () => {
    await page.goto(new URL('/apps', stack.baseUrl).href);
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor({ timeout: STEP });
  };

  it('saves a repository URL, shows the API message for a bad one, links it and clears it', async () => {
    await appsPage();
    await page.getByRole('button', { name: 'Add application' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add application' });
    await dialog.getByLabel('Name').fill('Shop');
    await dialog.getByLabel('Code').fill('shop');
    await dialog.getByLabel('Pipeline URL').fill('https://app.circleci.com/pipelines/github/acme/shop');
    await dialog.getByLabel(/Repository URL/).fill('git@github.com:acme/shop.git');
    await dialog.getByRole('button', { name: 'Add application' }).click();
    await waitText(dialog.locator('.field-error'), /Repository URL must be an absolute http\(s\) URL/);

    await dialog.getByLabel(/Repository URL/).fill('https://github.com/acme/shop');
    await dialog.getByRole('button', { name: 'Add application' }).click();
    const row = page.getByRole('row', { name: /Shop/ });
    await row.waitFor({ timeout: STEP });
    expect(await row.getByRole('link', { name: /repository/ }).getAttribute('href')).toBe(
      'https://github.com/acme/shop',
    );
    const { body } = await stack.api<{ id: number; repositoryUrl: string | null }[]>('/api/apps');
    expect(body.data[0]!.repositoryUrl).toBe('https://github.com/acme/shop');

    await row.getByRole('button', { name: /Edit/ }).click();
    const edit = page.getByRole('dialog');
    expect(await edit.getByLabel(/Repository URL/).inputValue()).toBe('https://github.com/acme/shop');
    await edit.getByLabel(/Repository URL/).fill('');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(
        async () =>
          (await stack.api<{ repositoryUrl: string | null }[]>('/api/apps')).body.data[0]!.repositoryUrl,
        {
          timeout: STEP,
        },
      )
      .toBeNull();
    await page.getByRole('link', { name: /repository/ }).waitFor({ state: 'detached', timeout: STEP });
  }, 90_000);
});
