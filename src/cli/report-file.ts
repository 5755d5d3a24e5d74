import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { promisify } from 'node:util';
import { constants, gunzipSync, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/** A report file ready for the wire: always gzipped, typed by what is inside. */
export interface PreparedReport {
  body: Buffer<ArrayBuffer>;
  contentType: string;
}

/** Thrown for a file that cannot be sent as it is (a damaged gzip file). */
export class ReportFileError extends Error {}

/** How many compressed bytes are inflated to see what a gzipped report holds. */
const SNIFF_BYTES = 64 * 1024;

/** The gzip magic number (RFC 1952): what a file is, whatever its name says. */
export const isGzip = (content: Buffer) => content.length >= 2 && content[0] === 0x1f && content[1] === 0x8b;

/**
 * Reads a report and gzips it for the wire, unless it is gzipped already (`.xml.gz`, or any name):
 * that file goes as it is, and its content type comes from what it holds.
 */
export async function prepareReport(file: string): Promise<PreparedReport> {
  const content = await readFile(file);
  if (!isGzip(content)) return { body: await gzipAsync(content), contentType: contentTypeOf(file, content) };
  return {
    body: content,
    contentType: contentTypeOf(file.replace(/\.t?gz(ip)?$/i, ''), inflatedStart(content)),
  };
}

/**
 * The first inflated bytes of a gzip file. A sync flush lets zlib hand over what it has inflated
 * from a slice of the file instead of failing on the missing end.
 */
function inflatedStart(content: Buffer): Buffer {
  try {
    return gunzipSync(content.subarray(0, SNIFF_BYTES), { finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    throw new ReportFileError(`not a readable gzip file (${(error as Error).message})`);
  }
}

/** The Content-Type of a report: by its extension, else by its first character. */
export function contentTypeOf(file: string, content: Buffer): string {
  const extension = extname(file).toLowerCase();
  if (extension === '.xml') return 'application/xml';
  if (extension === '.json') return 'application/json';
  // trimStart also drops a byte-order mark.
  const first = content.toString('utf8', 0, Math.min(content.length, 512)).trimStart()[0];
  return first === '<' ? 'application/xml' : 'application/json';
}
