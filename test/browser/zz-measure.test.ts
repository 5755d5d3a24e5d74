import { it } from 'vitest';
import { launchBrowser, openSignedIn, startStack } from './harness.js';
import { measureColdLoad } from './cold-load.js';

it('measures', async () => {
  const stack = await startStack({ bare: true });
  for (const path of ['/', '/apps', '/notifications']) {
    const browser = await launchBrowser();
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await openSignedIn(page, stack.baseUrl, '/not-a-page');
    // second context-fresh load: clear cache via CDP
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.goto(new URL(path, stack.baseUrl).href);
    console.log(path, JSON.stringify(await measureColdLoad(page)));
    await browser.close();
  }
  await stack.stop();
}, 120_000);
