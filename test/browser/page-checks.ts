import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The pages of the navigation, for checks that walk every page. */
export const NAV_PAGES = [
  '/',
  '/apps',
  '/pull-requests',
  '/tickets',
  '/todos',
  '/quarantine',
  '/notifications',
  '/status',
  '/settings',
] as const;

/** How far the page can scroll sideways (0 when it fits the viewport). */
export const sidewaysOverflow = (page: Page): Promise<number> =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

/**
 * "none" when the page fits the viewport, else how far it scrolls sideways and the element that
 * reaches furthest right (tag, class, text), so a failing check names its cause.
 */
export const sidewaysOverflowCause = (page: Page): Promise<string> =>
  page.evaluate<string>(`(() => {
    const root = document.documentElement;
    const over = root.scrollWidth - root.clientWidth;
    if (over <= 0) return 'none';
    let right = 0;
    let culprit = '';
    for (const element of document.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect();
      if (box.right > right) {
        right = box.right;
        culprit = element.tagName + '.' + String(element.className) + ' ' + (element.textContent || '').slice(0, 40);
      }
    }
    return over + ' px, widest: ' + culprit;
  })()`);

/** axe-core's serious and critical violations on the current page, as "rule: target" lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>("'axe' in window"))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate<string[]>(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((node) => v.id + ': ' + JSON.stringify(node.target))))`);
}

/** Waits until the page has settled: no spinner left and the network quiet. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .locator('.loading')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

/**
 * Every page at 390 px and 1440 px, light and dark: no sideways scroll at 390 px, no serious or
 * critical axe-core violation anywhere. Returns the problems found, one line each.
 */
export async function walkPages(page: Page, baseUrl: string, paths: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const path of paths) {
    await page.goto(new URL(path, baseUrl).href);
    await settle(page);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.waitForTimeout(100);
        if (width === 390) {
          const overflow = await sidewaysOverflow(page);
          if (overflow > 0) problems.push(`${path} ${scheme} 390: scrolls ${overflow} px sideways`);
        }
        for (const line of await seriousViolations(page))
          problems.push(`${path} ${scheme} ${width}: ${line}`);
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  return problems;
}
