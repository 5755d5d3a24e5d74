import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { contentTypeOf, prepareReport, ReportFileError } from './report-file.js';

describe('report files', () => {
  const folder = mkdtempSync(join(tmpdir(), 'report-file-'));
  const write = (name: string, content: Buffer | string) => {
    writeFileSync(join(folder, name), content);
    return join(folder, name);
  };

  it('types a report by its extension, else by its first character (after a byte-order mark)', () => {
    expect(contentTypeOf('a.xml', Buffer.from('{'))).toBe('application/xml');
    expect(contentTypeOf('a.JSON', Buffer.from('<'))).toBe('application/json');
    expect(contentTypeOf('report', Buffer.from('\uFEFF  <?xml version="1.0"?>'))).toBe('application/xml');
    expect(contentTypeOf('report', Buffer.from('\n{"suites": []}'))).toBe('application/json');
  });

  it('gzips a plain report, and sends a gzipped one as it is, typed by what it holds', async () => {
    const xml = '<testsuites><testsuite name="a"/></testsuites>';
    const plain = await prepareReport(write('plain.xml', xml));
    expect(gunzipSync(plain.body).toString()).toBe(xml);
    expect(plain.contentType).toBe('application/xml');

    // Larger than the sniffed slice, so the type comes from a partial inflation.
    const big = JSON.stringify({ suites: [], noise: randomBytes(100_000).toString('hex') });
    const gzipped = gzipSync(big);
    expect(gzipped.length).toBeGreaterThan(64 * 1024);
    const named = await prepareReport(write('results.xml.gz', gzipSync(xml)));
    const unnamed = await prepareReport(write('results.bin', gzipped));
    expect(named).toEqual({ body: gzipSync(xml), contentType: 'application/xml' });
    expect(unnamed.body.equals(gzipped)).toBe(true);
    expect(unnamed.contentType).toBe('application/json');
  });

  it('refuses a damaged gzip file', async () => {
    await expect(prepareReport(write('bad.gz', Buffer.from([0x1f, 0x8b, 9, 9, 9, 9])))).rejects.toThrow(
      ReportFileError,
    );
  });
});
