import { describe, expect, it } from 'vitest';
import { createApp, fixture, JSON_TYPE, upload, XML } from '../../uploads/upload-support.js';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

interface ResultSources {
  cypress: { configured: boolean; lastSuccessAt: string | null; lastError: string | null };
  uploads: {
    apps: {
      appId: number;
      appName: string;
      appCode: string;
      lastUploadAt: string;
      format: string;
      runNumber: number;
    }[];
  };
}

const TABLES = ['test_result_failures', 'test_result_specs', 'test_result_uploads', 'apps'] as const;

describe.each(DIALECTS)('GET /api/status: results sources (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, TABLES);
  const api = (options: Parameters<typeof t.api>[0]) => t.api(options);
  const sources = async () =>
    (await t.api({ method: 'GET', url: '/api/status' })).json<{ data: { resultSources: ResultSources } }>()
      .data.resultSources;

  it('names the Cypress export unset and no uploads on a bare start', async () => {
    await createApp(api, 'idle');
    expect(await sources()).toEqual({
      cypress: { configured: false, lastSuccessAt: null, lastError: null },
      uploads: { apps: [] },
    });
  });

  it("lists each app that uploaded with its newest run's format and upload time, newest first", async () => {
    const shop = await createApp(api, 'shop');
    const web = await createApp(api, 'web');
    await createApp(api, 'idle');
    const send = async (code: string, run: number, body: Buffer, contentType: string) => {
      const res = await upload(api, body, { contentType, query: { app: code, run } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ data: { id: number } }>().data.id;
    };
    await send(shop.code, 41, fixture('jest-junit.xml'), XML);
    await send(shop.code, 42, fixture('mocha-junit.xml'), XML);
    await send(web.code, 7, fixture('playwright.json'), JSON_TYPE);
    // An older run sent late does not replace the newest run.
    await send(shop.code, 40, fixture('pytest-junit.xml'), XML);

    const uploadedAt = async (appId: number, run: number) =>
      (
        await t.database.db
          .selectFrom('test_result_uploads')
          .select('uploaded_at')
          .where('app_id', '=', appId)
          .where('run_number', '=', run)
          .executeTakeFirstOrThrow()
      ).uploaded_at;
    const { uploads } = await sources();
    expect(uploads.apps).toEqual([
      {
        appId: web.id,
        appName: 'web',
        appCode: web.code,
        lastUploadAt: await uploadedAt(web.id, 7),
        format: 'playwright',
        runNumber: 7,
      },
      {
        appId: shop.id,
        appName: 'shop',
        appCode: shop.code,
        lastUploadAt: await uploadedAt(shop.id, 42),
        format: 'junit',
        runNumber: 42,
      },
    ]);
  });
});
