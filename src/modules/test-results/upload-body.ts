import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { PayloadTooLargeError, ValidationError } from '../../shared/errors.js';
import { createJsonReader } from './json-reader.js';
import { createJUnitReader } from './junit-reader.js';
import type { CollectorOptions, ParsedReport } from './report-model.js';

export type BodyKind = 'xml' | 'json';

/** Longest stretch of parsing before other work on the event loop gets its turn. */
const YIELD_AFTER_MS = 5;

const KINDS: Record<string, BodyKind> = {
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/json': 'json',
};

/** The kind of report a Content-Type announces; 400 INVALID_CONTENT_TYPE for any other. */
export function bodyKindOf(contentType: string | undefined): BodyKind {
  const mediaType = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  const kind = KINDS[mediaType];
  if (kind) return kind;
  throw ValidationError.single(
    'content-type',
    'INVALID_CONTENT_TYPE',
    'Content-Type must be application/xml or text/xml (JUnit XML) or application/json (Playwright or Mochawesome JSON)',
    contentType ?? null,
  );
}

/** Whether the body is gzipped; 400 for an encoding other than gzip or identity. */
export function isGzipped(contentEncoding: string | undefined): boolean {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return false;
  if (encoding === 'gzip' || encoding === 'x-gzip') return true;
  throw ValidationError.single(
    'content-encoding',
    'INVALID_VALUE',
    'Content-Encoding must be gzip (or absent)',
    contentEncoding,
  );
}

const tooLarge = (maxBytes: number) =>
  new PayloadTooLargeError(`The upload exceeds UPLOAD_MAX_BYTES (${maxBytes} bytes)`, { maxBytes });

export interface ReadUpload {
  report: ParsedReport;
  /** SHA-256 of the report file as uploaded, after inflation. */
  digest: string;
}

/**
 * Reads an upload as it arrives: inflated when gzipped, counted on the wire and after inflation
 * (either past `maxBytes` is 413), hashed, and handed chunk by chunk to the format's reader. XML
 * and JSON are parsed as they come, so each network chunk is a short slice of work and other
 * requests are served in between.
 */
export async function readUpload(
  body: Readable,
  options: {
    kind: BodyKind;
    gzipped: boolean;
    declaredLength: number | undefined;
    maxBytes: number;
    /** The CI's checkout folder: absolute spec paths under it are stored relative to it. */
    root?: string | undefined;
    /** Told of each test (per-test storage); `flushIfDue` is awaited between chunks. */
    tests?: { onTest: NonNullable<CollectorOptions['onTest']>; flushIfDue: () => Promise<void> | undefined };
  },
): Promise<ReadUpload> {
  const { maxBytes } = options;
  if (options.declaredLength !== undefined && options.declaredLength > maxBytes) throw tooLarge(maxBytes);
  let wireBytes = 0;
  const counted = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      wireBytes += chunk.length;
      if (wireBytes > maxBytes) throw tooLarge(maxBytes);
      yield chunk;
    }
  };
  let source: AsyncIterable<Buffer> = counted(body);
  if (options.gzipped) {
    const gunzip = createGunzip();
    const wire = source;
    // Fed by hand (not piped) so a failure on either side ends both.
    void (async () => {
      try {
        for await (const chunk of wire) {
          if (!gunzip.write(chunk)) await new Promise((resolve) => gunzip.once('drain', resolve));
        }
        gunzip.end();
      } catch (error) {
        gunzip.destroy(error as Error);
      }
    })();
    source = gunzip;
  }

  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  const readerOptions: CollectorOptions = {
    root: options.root,
    ...(options.tests ? { onTest: options.tests.onTest } : {}),
  };
  const reader = options.kind === 'xml' ? createJUnitReader(readerOptions) : createJsonReader(readerOptions);
  let bytes = 0;
  let sliceStarted = performance.now();
  /** A failure of the database behind `tests`: never to be mistaken for a bad body. */
  let storageFailure: unknown;
  try {
    for await (const chunk of source) {
      // Chunks already buffered are handed over without a turn of the event loop: after a few
      // milliseconds of parsing, let the requests that are waiting go first.
      if (performance.now() - sliceStarted > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
      bytes += chunk.length;
      if (bytes > maxBytes) throw tooLarge(maxBytes);
      hash.update(chunk);
      reader.write(decoder.write(chunk));
      const flushing = options.tests?.flushIfDue();
      if (flushing) {
        await flushing.catch((error: unknown) => {
          storageFailure = error;
          throw error;
        });
        sliceStarted = performance.now();
      }
    }
  } catch (error) {
    if (error instanceof PayloadTooLargeError || error instanceof ValidationError) throw error;
    if (error === storageFailure) throw error;
    if (options.gzipped) {
      throw ValidationError.single('body', 'INVALID_FORMAT', 'The body is not valid gzip data');
    }
    throw error;
  } finally {
    body.resume();
  }
  if (bytes === 0) throw ValidationError.single('body', 'EMPTY_BODY', 'Request body is required');
  const rest = decoder.end();
  if (rest) reader.write(rest);
  return { report: await reader.finish(), digest: hash.digest('hex') };
}
