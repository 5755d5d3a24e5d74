import { Writable } from 'node:stream';

/**
 * A stream to hand to the logger in place of stdout, keeping what it writes (one entry a write,
 * which pino makes one a log line) so a test can search the logs for what must never be there.
 */
export function captureLog(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { stream, lines };
}
