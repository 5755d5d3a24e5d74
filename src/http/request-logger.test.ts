import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../container.js';
import { captureLog } from '../../test/support/log-capture.js';
import { testConfig } from '../../test/support/test-app.js';
import { deferredChildLogger } from './request-logger.js';

/** A process logger at `level` writing to memory, counting the children made from it. */
function countingLogger(level: string) {
  const { stream, lines } = captureLog();
  const logger = createLogger(testConfig({ LOG_LEVEL: level }), stream);
  const counts = { children: 0 };
  // Not bound: pino children inherit this method and must stay the receiver of their own calls.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const child = logger.child;
  logger.child = function (this: typeof logger, ...args: Parameters<typeof child>) {
    counts.children += 1;
    return child.apply(this, args);
  } as typeof logger.child;
  return { logger: logger as FastifyBaseLogger, lines, counts };
}

describe('deferred request logger', () => {
  it('makes no child while a request only logs below the level', () => {
    const { logger, lines, counts } = countingLogger('warn');
    const log = deferredChildLogger(logger, { reqId: 'r-1' }, {});
    log.info('incoming request');
    log.debug({ detail: 1 }, 'details');
    log.trace('trace');
    expect(counts.children).toBe(0);
    expect(lines).toEqual([]);
    expect(log.level).toBe('warn');
  });

  it('writes enabled lines with the request id, through one child', () => {
    const { logger, lines, counts } = countingLogger('warn');
    const log = deferredChildLogger(logger, { reqId: 'r-2' }, {});
    log.warn({ ip: '10.0.0.1' }, 'first');
    log.error(new Error('boom'), 'second');
    log.info('not written');
    expect(counts.children).toBe(1);
    const written = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(written).toMatchObject([
      { level: 40, reqId: 'r-2', ip: '10.0.0.1', msg: 'first' },
      { level: 50, reqId: 'r-2', msg: 'second', err: { message: 'boom' } },
    ]);
  });

  it('keeps the request id in grandchildren', () => {
    const { logger, lines } = countingLogger('info');
    deferredChildLogger(logger, { reqId: 'r-3' }, {}).child({ job: 'sync' }).info('nested');
    expect(JSON.parse(lines[0]!)).toMatchObject({ reqId: 'r-3', job: 'sync', msg: 'nested' });
  });

  it('makes a real child at once when the route sets its own level', () => {
    const { logger, lines, counts } = countingLogger('warn');
    const log = deferredChildLogger(logger, { reqId: 'r-4' }, { level: 'debug' });
    expect(counts.children).toBe(1);
    log.debug('route-level debug');
    expect(JSON.parse(lines[0]!)).toMatchObject({ reqId: 'r-4', msg: 'route-level debug' });
  });
});
