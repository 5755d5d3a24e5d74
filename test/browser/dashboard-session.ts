import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { chromiumAvailable, CHROMIUM, VIEWPORTS } from './harness.js';
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

/** The dashboard's pages, each with its main heading. */
export const DASHBOARD_PAGES: readonly [string, string][] = [
  ['/', 'Overview'],
  ['/apps', 'Applications'],
  ['/pull-requests', 'Pull requests'],
  ['/tickets', 'Tickets'],
  ['/todos', 'To-dos'],
  ['/notifications', 'Notifications'],
];

/**
 * Opens each page at phone width and checks that none scrolls sideways and that every control
 * has a name for screen readers; back to desktop width after.
 */
export async function expectPhoneFriendly(page: Page, go: DashboardSession['go']): Promise<void> {
  await page.setViewportSize(VIEWPORTS.phone);
  for (const [path, heading] of DASHBOARD_PAGES) {
    await go(path, heading);
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${path} scrolls sideways at phone width`).toBeLessThanOrEqual(0);
    const unnamed = await page.locator('input, select, textarea, button, a[href]').evaluateAll((elements) =>
      elements
        .filter((el) => {
          const control = el as unknown as { labels?: { length: number } | null };
          const named =
            (control.labels?.length ?? 0) > 0 ||
            !!el.getAttribute('aria-label') ||
            !!el.getAttribute('aria-labelledby') ||
            (el.textContent ?? '').trim() !== '';
          return !named;
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(unnamed, `${path} has unnamed controls`).toEqual([]);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}
