import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.js';
import { fixture, JSON_TYPE, upload, uploadSuite, uploadTableCounts, XML } from './upload-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies, read freely
type Json = Record<string, any>;

describe.each(DIALECTS)('POST /api/test_results refusals (%s)', (dialect) => {
  const { suite, api, send } = uploadSuite(dialect);

  const refusals: [string, () => ReturnType<typeof send>, number, Json][] = [
    [
      'an unknown app',
      () => upload(api, fixture('jest-junit.xml'), { contentType: XML, query: { app: 'nope', run: 1 } }),
      404,
      // The answer says how to create the app: the endpoint and the CLI's flag.
      {
        code: 'NOT_FOUND',
        message: expect.stringMatching(/"nope" not found.*POST \/api\/apps.*--create-app/),
      },
    ],
    [
      'an attempt that is not a positive integer',
      () => send(fixture('jest-junit.xml'), XML, { run: 1, attempt: 0 }),
      400,
      { code: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'attempt' })] },
    ],
    [
      'missing app and run, bad runUrl and createdAt (one error listing each)',
      () =>
        upload(api, fixture('jest-junit.xml'), {
          contentType: XML,
          query: { runUrl: 'ftp://x', createdAt: 'yesterday' },
        }),
      400,
      { code: 'VALIDATION_ERROR' },
    ],
    [
      'a run that is not a positive integer',
      () => send(fixture('jest-junit.xml'), XML, { run: 0 }),
      400,
      { code: 'VALIDATION_ERROR' },
    ],
    [
      'another content type',
      () => send(fixture('jest-junit.xml'), 'text/plain', { run: 1 }),
      400,
      { details: [expect.objectContaining({ code: 'INVALID_CONTENT_TYPE' })] },
    ],
    [
      'no content type',
      () => upload(api, fixture('jest-junit.xml'), { query: { app: suite.shop.code, run: 1 } }),
      400,
      { details: [expect.objectContaining({ code: 'INVALID_CONTENT_TYPE' })] },
    ],
    [
      'malformed XML (with line and column)',
      () =>
        send('<testsuites>\n  <testsuite name="a">\n    <testcase name="x"></testsuite>', XML, { run: 1 }),
      400,
      {
        code: 'VALIDATION_ERROR',
        details: [expect.objectContaining({ code: 'INVALID_FORMAT', line: 3, column: 35 })],
      },
    ],
    [
      'XML that is not JUnit',
      () => send('<html><body/></html>', XML, { run: 1 }),
      400,
      { details: [expect.objectContaining({ code: 'INVALID_FORMAT' })] },
    ],
    [
      'malformed JSON',
      () => send('{"stats": {', JSON_TYPE, { run: 1 }),
      400,
      { details: [expect.objectContaining({ code: 'INVALID_FORMAT' })] },
    ],
    [
      'JSON of neither shape',
      () => send('{"tests": []}', JSON_TYPE, { run: 1 }),
      400,
      { details: [expect.objectContaining({ code: 'INVALID_FORMAT' })] },
    ],
    [
      'an empty body',
      () => send('', XML, { run: 1 }),
      400,
      { details: [expect.objectContaining({ code: 'EMPTY_BODY' })] },
    ],
    [
      'gzip that is not gzip',
      () =>
        suite.t.api({
          method: 'POST',
          url: `/api/test_results?app=${suite.shop.code}&run=1`,
          headers: { 'content-type': XML, 'content-encoding': 'gzip' },
          payload: 'plain',
        }),
      400,
      { code: 'VALIDATION_ERROR' },
    ],
    [
      'a body over UPLOAD_MAX_BYTES',
      () => send(`<testsuite name="a">${'<testcase name="x"/>'.repeat(20_000)}</testsuite>`, XML, { run: 1 }),
      413,
      { code: 'PAYLOAD_TOO_LARGE' },
    ],
    [
      'a streamed body (no Content-Length) that grows past UPLOAD_MAX_BYTES',
      () =>
        api({
          method: 'POST',
          url: `/api/test_results?app=${suite.shop.code}&run=1`,
          headers: { 'content-type': XML },
          payload: Readable.from(
            (function* () {
              yield '<testsuite name="a">';
              for (let i = 0; i < 400; i++) yield '<testcase name="x"/>'.repeat(50);
              yield '</testsuite>';
            })(),
          ),
        }),
      413,
      { code: 'PAYLOAD_TOO_LARGE' },
    ],
    [
      'gzip that inflates past UPLOAD_MAX_BYTES',
      () => send(`<testsuite name="a">${' '.repeat(10 * 1024 * 1024)}</testsuite>`, XML, { run: 1 }, true),
      413,
      { code: 'PAYLOAD_TOO_LARGE' },
    ],
  ];

  it.each(refusals)('%s', async (_name, request, status, error) => {
    const before = await uploadTableCounts(suite.t.database);
    const response = await request();
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json<Json>().error).toMatchObject(error);
    expect(await uploadTableCounts(suite.t.database)).toEqual(before);
  });

  it('lists every bad parameter in one error', async () => {
    const response = await upload(api, fixture('jest-junit.xml'), {
      contentType: XML,
      query: { run: -3, runUrl: 'ftp://x', createdAt: 'yesterday' },
    });
    const fields = (response.json<Json>().error.details as Json[]).map((detail) => detail.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['app', 'createdAt', 'run', 'runUrl']));
  });

  it('never expands or fetches entities: XXE and billion laughs are refused', async () => {
    let fetched = 0;
    const bait = createServer((_request, response) => {
      fetched += 1;
      response.end('<!ENTITY leak "x">');
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    const port = (bait.address() as { port: number }).port;
    const before = await uploadTableCounts(suite.t.database);
    const documents = [
      `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><testsuite name="&xxe;"/>`,
      `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY % remote SYSTEM "http://127.0.0.1:${port}/evil.dtd"> %remote;]><testsuite name="a"/>`,
      `<?xml version="1.0"?><!DOCTYPE t SYSTEM "http://127.0.0.1:${port}/t.dtd"><testsuite name="a"/>`,
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]><testsuite name="&lol9;"/>`,
      `<testsuite name="&lol9;"/>`,
    ];
    try {
      for (const xml of documents) {
        for (const gzip of [false, true]) {
          const response = await send(xml, XML, { run: 5 }, gzip);
          expect(response.statusCode, xml).toBe(400);
          expect(response.json<Json>().error.details[0].code).toBe('INVALID_FORMAT');
          expect(response.body).not.toContain('root:');
        }
      }
    } finally {
      await new Promise((resolve) => bait.close(resolve));
    }
    expect(fetched).toBe(0);
    expect(await uploadTableCounts(suite.t.database)).toEqual(before);
  });

  it('needs the key', async () => {
    const response = await suite.t.app.inject({
      method: 'POST',
      url: `/api/test_results?app=${suite.shop.code}&run=1`,
      headers: { 'content-type': XML },
      payload: gzipSync('x'),
    });
    expect(response.statusCode).toBe(401);
  });
});
