import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../container.js';
import { captureLog } from '../../../test/support/log-capture.js';
import { openTestDatabase } from '../../../test/support/test-database.js';
import { testConfig } from '../../../test/support/test-app.js';
import { buildTestApp } from '../../../test/support/test-container.js';
import { deferredChildLogger, maskSecretQuery } from './request-logger.js';

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

describe('secret query values in logged URLs', () => {
  const SECRETS = ['key-value-1', 'token-value-2', 'secret-value-3', 'pw-value-4', 'apikey-5', 'xkey-6'];
  const query =
    `?KEY=${SECRETS[0]}&Token=${SECRETS[1]}&secret=${SECRETS[2]}&PassWord=${SECRETS[3]}` +
    `&api_key=${SECRETS[4]}&X-Api-Key=${SECRETS[5]}&limit=5&keyword=kept`;

  it('are masked in the request and error lines of a real request, other parameters kept', async () => {
    const { stream, lines } = captureLog();
    const config = testConfig({ LOG_LEVEL: 'info' });
    const database = await openTestDatabase('sqlite');
    const app = await buildTestApp(config, { database, log: createLogger(config, stream) });
    // An error whose message carries the URL, as errors of HTTP libraries often do.
    app.get('/explode', { schema: { hide: true } }, async (request) => {
      throw new Error(`upstream refused ${request.url}`);
    });
    try {
      expect((await app.inject({ method: 'GET', url: `/api/apps${query}` })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: `/explode${query}` })).statusCode).toBe(500);
    } finally {
      await app.close();
      await database.close();
    }
    const text = lines.join('');
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    const urls = lines
      .map((line) => JSON.parse(line) as { req?: { url?: string } })
      .flatMap((l) => l.req?.url ?? []);
    expect(urls).toContain(
      '/api/apps?KEY=[redacted]&Token=[redacted]&secret=[redacted]&PassWord=[redacted]' +
        '&api_key=[redacted]&X-Api-Key=[redacted]&limit=5&keyword=kept',
    );
    const errorLine = lines.find((line) => line.includes('upstream refused'));
    expect(errorLine).toContain('/explode?KEY=[redacted]');
  });

  it('are masked in an url field, an error and the message text', () => {
    const { stream, lines } = captureLog();
    const logger = createLogger(testConfig({ LOG_LEVEL: 'info' }), stream);
    logger.info({ url: `/a${query}` }, 'fetching');
    logger.error({ err: new Error(`GET /b${query} failed`) }, 'failed');
    logger.warn(`retrying /c${query}`);
    expect(lines).toHaveLength(3);
    for (const secret of SECRETS) expect(lines.join('')).not.toContain(secret);
    expect(lines.join('')).toContain('limit=5&keyword=kept');
  });

  it('leaves text without such parameters as it is', () => {
    for (const text of ['/api/apps?limit=5', '/api/x?monkey=1&tokens=2', 'plain message', 'a=b'])
      expect(maskSecretQuery(text)).toBe(text);
    expect(maskSecretQuery('/x?a=1&key=abc#frag')).toBe('/x?a=1&key=[redacted]#frag');
  });
});
