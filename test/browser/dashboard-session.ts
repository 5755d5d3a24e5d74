import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { chromiumAvailable, CHROMIUM } from './harness.js';
import { type BrowserSession, openSession, STEP } from './steps.js';

/*
 * What the dashboard walk-through files (dashboard-apps.test.ts, dashboard-work-items.test.ts)
 * share: one session per file, with the page's script errors collected and a way to open a page.
 */

// Locally without Chromium the suite is skipped loudly; in CI a missing browser fails it.
if (!chromiumAvailable && !process.env.CI) {
  console.warn(`browser tests SKIPPED: ${CHROMIUM} is missing (apt-get install chromium)`);
}

/** Playwright's web-first assertions belong to its own runner; these wait the same way under Vitest. */
export const visible = (locator: Locator, timeout = STEP) =>
  locator.first().waitFor({ state: 'visible', timeout });
export const hasText = (locator: Locator, text: string, timeout = STEP) =>
  expect
    .poll(
      () =>
        locator
          .first()
          .textContent({ timeout: 1000 })
          .catch(() => ''),
      { timeout, interval: 200 },
    )
    .toContain(text);

export interface DashboardSession extends BrowserSession {
  /** Script errors and CSP refusals seen on any page of the session; none are expected. */
  problems: string[];
  /** Opens `path` and waits for its main heading. */
  go: (path: string, heading: string) => Promise<void>;
}

export async function openDashboard(): Promise<DashboardSession> {
  const { stack, browser, page } = await openSession();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to|Uncaught/i.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  const go = async (path: string, heading: string) => {
    await page.goto(new URL(path, stack.baseUrl).href);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };
  return { stack, browser, page, problems, go };
}
