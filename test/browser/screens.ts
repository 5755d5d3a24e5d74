import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** Where the screenshots of the pages are written for a person to look at (not compared by tests). */
export const SCREENS_DIR = process.env.SCREENS_DIR ?? '/tmp/screens/web';

const WIDTHS = { 1440: { width: 1440, height: 900 }, 390: { width: 390, height: 844 } } as const;

/** Full-page shots of the current page at 1440 and 390 px, light and dark: `name-width-theme.png`. */
export async function screens(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const before = page.viewportSize();
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const [width, size] of Object.entries(WIDTHS)) {
      await page.setViewportSize(size);
      await page.waitForTimeout(120);
      await page.screenshot({ path: `${SCREENS_DIR}/${name}-${width}-${theme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (before) await page.setViewportSize(before);
}
