import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playwrightReport, fail, pass, retried } from '../integration/verdict/verdict-support.js';
import { TEST_KEY } from '../support/test-app.js';
import { type Browser, chromiumAvailable, type Stack } from './harness.js';
import { seriousViolations, sidewaysOverflowCause } from './page-checks.js';
import { closeSession, openSession, waitText } from './steps.js';

const SCREENS = '/tmp/verdict-screens';
const WIDTHS = { 1440: { width: 1440, height: 900 }, 390: { width: 390, height: 844 } } as const;

async function upload(stack: Stack, query: Record<string, string>, body: string) {
  const response = await fetch(`${stack.baseUrl}/api/test_results?${new URLSearchParams(query).toString()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
    body,
  });
  expect(response.status).toBe(201);
}

describe.skipIf(!chromiumAvailable && !process.env.CI)('the run page in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let appId: number;

  beforeAll(async () => {
    ({ stack, browser, page } = await openSession({ bare: true }));
    const created = await stack.api<{ id: number }>('/api/apps', {
      method: 'POST',
      body: { name: 'Shop', code: 'shop', pipelineUrl: 'https://ci.example.com/shop', prFeedback: 'status' },
    });
    appId = created.body.data.id;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await upload(
      stack,
      { app: 'shop', run: '1', branch: 'main', commit: 'a'.repeat(40), createdAt: yesterday },
      playwrightReport([pass('checkout.spec.ts', 'pays'), fail('cart.spec.ts', 'adds an item')], yesterday),
    );
    const now = new Date().toISOString();
    await upload(
      stack,
      {
        app: 'shop',
        run: '2',
        branch: 'feature/tax',
        commit: 'b'.repeat(40),
        runUrl: 'https://ci.example.com/runs/2',
        createdAt: now,
      },
      playwrightReport(
        [
          fail(
            'checkout.spec.ts',
            'pays',
            'Error: expect(received).toBe(expected)\nExpected: 9.00\nReceived: 10.00',
          ),
          fail('cart.spec.ts', 'adds an item'),
          retried('search.spec.ts', 'finds a shoe'),
        ],
        now,
      ),
    );
  });
  afterAll(async () => {
    await closeSession(browser, stack);
  });

  it('shows the verdict by class with test links and the feedback state, at 1440 and 390 px', async () => {
    await page.goto(new URL('/', stack.baseUrl).href);
    await page.evaluate(`localStorage.setItem('dashboard.apiKey', ${JSON.stringify(TEST_KEY)})`);
    await page.goto(new URL(`/apps/${appId}/runs/2`, stack.baseUrl).href);
    await waitText(page.locator('body'), 'New failures (1)');
    const body = (await page.textContent('main')) ?? (await page.textContent('body')) ?? '';
    expect(body).toContain('Already failing on the default branch (1)');
    expect(body).toContain('Known flaky (1)');
    expect(body).toContain('Pull-request feedback');
    const link = page.getByRole('link', { name: 'checkout.spec.ts › pays' });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^/apps/${appId}/tests/[A-Za-z0-9_-]{16}$`));
    expect(await seriousViolations(page)).toEqual([]);
    mkdirSync(SCREENS, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const [width, size] of Object.entries(WIDTHS)) {
        await page.setViewportSize(size);
        await page.waitForTimeout(120);
        if (width === '390') expect(await sidewaysOverflowCause(page)).toBe('none');
        await page.screenshot({ path: `${SCREENS}/run-${width}-${theme}.png`, fullPage: true });
      }
    }
  });
});
