import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors.js';
import { readUpload } from './upload-body.js';

const XML_REPORT =
  '<testsuites><testsuite name="s" file="a.spec.ts"><testcase name="t"/></testsuite></testsuites>';

describe('readUpload', () => {
  it('lets a failure of the per-test storage through as it is, never as a bad gzip body', async () => {
    const gone = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const failing = Promise.reject(gone);
    failing.catch(() => undefined);
    const reading = readUpload(Readable.from([gzipSync(XML_REPORT)]), {
      kind: 'xml',
      gzipped: true,
      declaredLength: undefined,
      maxBytes: 1_000_000,
      tests: { onTest: () => 'key', flushIfDue: () => failing },
    });
    await expect(reading).rejects.toBe(gone);
  });

  it('still answers a body that is not gzip as one', async () => {
    const reading = readUpload(Readable.from([Buffer.from(XML_REPORT)]), {
      kind: 'xml',
      gzipped: true,
      declaredLength: undefined,
      maxBytes: 1_000_000,
    });
    await expect(reading).rejects.toBeInstanceOf(ValidationError);
  });
});
