import type { Page } from 'playwright-core';

export interface ColdLoad {
  /** Compressed bytes of the scripts and style sheets the first page fetched. */
  scriptAndStyleBytes: number;
  /** Largest contentful paint of the page, in milliseconds. */
  lcpMs: number;
}

/**
 * What a first visit costs: the transferred (compressed) size of the JS and CSS the page loaded and
 * its largest contentful paint, read from the browser's own performance entries. The caller opens
 * the page in a fresh context so nothing comes from the cache.
 */
/** Runs in the page: sums the JS and CSS transfers and waits for the LCP entry. */
const MEASURE = `new Promise((resolve) => {
  const scriptAndStyleBytes = performance
    .getEntriesByType('resource')
    .filter((entry) => /\\.(js|css)(\\?|$)/.test(entry.name))
    .reduce((sum, entry) => sum + entry.transferSize, 0);
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    const last = entries[entries.length - 1];
    resolve({ scriptAndStyleBytes, lcpMs: Math.round(last ? last.startTime : 0) });
  }).observe({ type: 'largest-contentful-paint', buffered: true });
})`;

export async function measureColdLoad(page: Page): Promise<ColdLoad> {
  await page.waitForLoadState('networkidle');
  return page.evaluate<ColdLoad>(MEASURE);
}
