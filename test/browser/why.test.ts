import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeCommit, fakeCommitPull } from '../fakes/fake-github.js';
import { TEST_KEY } from '../support/test-app.js';
import { type Browser, chromiumAvailable, CHROMIUM, openSignedIn, type Stack } from './harness.js';
import { seriousViolations, sidewaysOverflowCause } from './page-checks.js';
import { screens } from './screens.js';
import { closeSession, openSession, STEP, waitText } from './steps.js';

if (!chromiumAvailable && !process.env.CI) {
  console.warn(`browser tests SKIPPED: ${CHROMIUM} is missing (apt-get install chromium)`);
}

const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const today = dayOffset(0);
const sha = (n: number) => String(n).repeat(40);
const runUrl = (n: number) => `https://ci.example.com/shop/runs/${n}`;
const TIMEOUT =
  'Timed out retrying after 4000ms: Expected to find element: `#pay`, but never found it. ' +
  'The payment form may not have loaded in time: see the payment sandbox logs.';

const junit = (failing: boolean) =>
  '<testsuites><testsuite name="pay" file="pay.cy.ts">' +
  (failing
    ? `<testcase name="pays"><failure message="${TIMEOUT}">${TIMEOUT}&#10;  at pay.cy.ts:4:2</failure></testcase>`
    : '<testcase name="pays"/>') +
  '</testsuite><testsuite name="home" file="home.cy.ts"><testcase name="loads"/></testsuite></testsuites>';

describe.skipIf(!chromiumAvailable && !process.env.CI)('why a spec fails, in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let shopId: number;
  const problems: string[] = [];

  beforeAll(async () => {
    ({ stack, browser, page } = await openSession());
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    stack.github.setCommits(
      'acme',
      'shop',
      [1, 2, 3, 4].map((n) => fakeCommit('acme', 'shop', sha(n), { message: `Change ${n}` })),
    );
    stack.github.setCommitPulls('acme', 'shop', sha(3), [
      fakeCommitPull('acme', 'shop', 412, { title: 'Checkout rewrite', user: { login: 'alice' } }),
    ]);
    shopId = (
      await stack.api<{ id: number }>('/api/apps', {
        method: 'POST',
        body: {
          name: 'shop',
          code: 'shop-code',
          pipelineUrl: 'https://ci.example.com/shop',
          repositoryUrl: 'https://github.com/acme/shop',
        },
      })
    ).body.data.id;
    for (const run of [1, 2, 3, 4]) {
      const query = new URLSearchParams({
        app: 'shop-code',
        run: String(run),
        createdAt: `${today}T0${run}:00:00.000Z`,
        commit: sha(run),
        runUrl: runUrl(run),
      });
      const response = await fetch(new URL(`/api/test_results?${query.toString()}`, stack.baseUrl), {
        method: 'POST',
        headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/xml' },
        body: junit(run >= 3),
      });
      expect(response.status, await response.text()).toBe(201);
    }
  }, 180_000);

  afterAll(() => closeSession(browser, stack));

  it('shows the history strip, links, the error, the suspects on demand and the failures by cause', async () => {
    await openSignedIn(page, stack.baseUrl, `/apps/${shopId}/report?date=${today}`);
    const failing = page.getByTestId('failing-specs');
    await waitText(failing, /pay\.cy\.ts/);

    // One cell per result, oldest first, each with a mark and a tooltip naming the run.
    const strip = failing.getByRole('list', { name: 'Last 4 results, oldest first' });
    const cells = strip.getByRole('listitem');
    expect(await cells.count()).toBe(4);
    expect(await cells.allTextContents()).toEqual(['✓', '✓', '✕', '✕']);
    expect(await cells.nth(0).getAttribute('title')).toMatch(/^Run #1 passed · /);
    expect(await cells.nth(3).locator('a').getAttribute('href')).toBe(runUrl(4));

    await waitText(failing, /Timed out retrying after 4000ms/);
    const more = failing.getByRole('button', { name: 'Show all' });
    await more.click();
    await waitText(failing, /see the payment sandbox logs\./);
    expect(await failing.getByRole('link', { name: 'Failed run #4' }).getAttribute('href')).toBe(runUrl(4));
    expect(await failing.getByRole('link', { name: sha(3).slice(0, 7) }).getAttribute('href')).toBe(
      `https://github.com/acme/shop/commit/${sha(3)}`,
    );

    await failing.getByText('Suspects', { exact: true }).click();
    const suspects = failing.getByRole('list', { name: 'Suspect commits of pay.cy.ts' });
    await suspects.waitFor({ state: 'visible', timeout: STEP });
    await waitText(suspects, /#412 Checkout rewrite/);

    const groups = page.getByTestId('failure-groups');
    await waitText(groups, /Timed out retrying after 4000ms/);
    await waitText(groups, /pay\.cy\.ts/);
    await screens(page, 'app-report-why');
    // With the suspects open and the full error shown: no serious axe finding, and no sideways
    // scroll on a phone, light or dark.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 390, height: 844 });
      // No tooltip left open by the pointer; the charts follow the new width on their next resize
      // callback, so wait for the layout.
      await page.mouse.move(0, 0);
      await expect.poll(() => sidewaysOverflowCause(page), { message: scheme, timeout: 10_000 }).toBe('none');
      expect(await seriousViolations(page), scheme).toEqual([]);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
