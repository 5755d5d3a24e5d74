import { describe, expect, it } from 'vitest';
import { manualRunsWith, quietLog } from '../../../test/support/manual-runs.js';
import { createTestApp } from '../../../test/support/test-app.js';

const SLUG = 'github/acme/shop';

describe('manual runs without CircleCI configuration', () => {
  it('answers 502 on trigger, and the poller does nothing', async () => {
    const t = await createTestApp();
    try {
      const created = await t.api({
        method: 'POST',
        url: '/api/apps',
        payload: {
          name: 'Shop',
          code: 'shop',
          pipelineUrl: `https://app.circleci.com/pipelines/${SLUG}`,
          e2eTriggerConfiguration: { enabled: true },
        },
      });
      const res = await t.api({
        method: 'POST',
        url: '/api/e2e_manual_runs',
        payload: { appId: created.json().data.id },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().error.message).toContain('CIRCLECI_TOKEN');
      const messages: string[] = [];
      const { poller } = manualRunsWith(t.config, t.database.db, {
        ...quietLog,
        info: (message: unknown) => messages.push(String(message)),
      });
      expect(messages.filter((message) => message.includes('CIRCLECI'))).toEqual([
        'CIRCLECI_TOKEN is not set: triggering a manual E2E run answers 502',
      ]);
      const atBoot = messages.length;
      poller.start();
      expect(await poller.pollOnce()).toBe(0);
      await poller.stop();
      expect(messages[atBoot]).toContain('not configured');
    } finally {
      await t.close();
    }
  });
});
