import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { FakeSpecRow } from '../fakes/fake-cypress.js';
import { type Browser, ensureWebBuild, launchBrowser, type Stack, startStack } from './harness.js';

/** How long one step of a browser test may wait for the page to catch up. */
export const STEP = 20_000;

/** The text of the first match, or '' while it is not on the page yet (so polling can go on). */
export const textOf = (locator: Locator): Promise<string> =>
  locator
    .first()
    .textContent({ timeout: 1000 })
    .then((text) => text ?? '')
    .catch(() => '');

/** Waits, as Playwright's own runner would, until the first match's text matches. */
export const waitText = (locator: Locator, text: string | RegExp, timeout = STEP) =>
  expect.poll(() => textOf(locator), { timeout, interval: 200 }).toMatch(text);

export interface BrowserSession {
  stack: Stack;
  browser: Browser;
  page: Page;
}

/**
 * Builds the UI when it is stale, starts the stack (bare: no integration credentials) and a fresh
 * Chromium, and hands back its first tab.
 */
export async function openSession(
  options: { bare?: boolean; env?: Record<string, string> } = {},
): Promise<BrowserSession> {
  await ensureWebBuild();
  const stack = await startStack({
    bare: options.bare ?? false,
    ...(options.env ? { env: options.env } : {}),
  });
  const browser = await launchBrowser();
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  return { stack, browser, page };
}

/** Closes what `openSession` opened; either may be missing when the set-up itself failed. */
export async function closeSession(browser: Browser | undefined, stack: Stack | undefined): Promise<void> {
  await browser?.close();
  await stack?.stop();
}

/**
 * One spec run as the fake Cypress service exports it, named after its run number; a failed run
 * failed two of its ten tests.
 */
export const cypressRow = (
  project: string,
  run: number,
  status: string,
  createdAt: string,
  extra: Partial<FakeSpecRow> = {},
): FakeSpecRow => ({
  project_name: project,
  run_number: run,
  created_at: createdAt,
  status,
  spec: `cypress/e2e/spec-${run}.cy.ts`,
  total_tests: 10,
  pass_tests: status === 'passed' ? 10 : 8,
  fail_tests: status === 'passed' ? 0 : 2,
  flaky_tests: 0,
  ...extra,
});
