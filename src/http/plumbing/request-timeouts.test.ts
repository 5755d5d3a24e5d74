import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveServer, startLiveServer } from '../../../test/support/live-server.js';
import { TEST_KEY } from '../../../test/support/test-app.js';

const LIMIT_MS = 800;

/** Opens a raw connection and resolves, once it closes, with how long it stayed open and what it got. */
function trickle(
  port: number,
  chunks: string[],
  everyMs: number,
): Promise<{ openMs: number; received: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const sendNext = () => {
      if (sent >= chunks.length || socket.destroyed) return;
      socket.write(chunks[sent]!);
      sent += 1;
      timer = setTimeout(sendNext, everyMs);
    };
    socket.on('connect', sendNext);
    socket.on('data', (data) => (received += data.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ openMs: Date.now() - started, received, sent });
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`connection still open after ${Date.now() - started} ms`));
    }, 10_000).unref();
  });
}

describe('REQUEST_TIMEOUT_MS', () => {
  let server: LiveServer;
  let port: number;
  beforeAll(async () => {
    server = await startLiveServer({ env: { REQUEST_TIMEOUT_MS: String(LIMIT_MS) } });
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(async () => server.close());

  it('closes a connection whose body is trickled one byte at a time', async () => {
    const body = JSON.stringify({ title: 'slow but never finished' });
    const head =
      `POST /api/to_do_list HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${TEST_KEY}\r\n` +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
    const { openMs, received, sent } = await trickle(port, [head, ...body.split('')], 100);
    expect(sent).toBeLessThan(body.length + 1);
    expect(openMs).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(openMs).toBeLessThan(LIMIT_MS + 1000);
    expect(received).not.toMatch(/^HTTP\/1\.1 201/);
    expect((await server.client.todos.list()).data).toEqual([]);
  });

  it('closes a connection whose headers are trickled', async () => {
    const head = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nx-slow: ${'a'.repeat(40)}\r\n\r\n`;
    const { openMs, received } = await trickle(port, head.split(''), 50);
    expect(openMs).toBeLessThan(LIMIT_MS + 1000);
    expect(received).not.toContain('"status"');
  });

  it('closes an idle keep-alive connection', async () => {
    const { openMs, received } = await trickle(port, ['GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'], 0);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    // Node keeps an idle socket a little past keepAliveTimeout (its keep-alive buffer, 1 s).
    expect(openMs).toBeLessThan(LIMIT_MS + 2000);
  });

  it('still serves a request sent within the limit', async () => {
    const created = await server.client.todos.create({ title: 'quick' });
    expect(created.data.title).toBe('quick');
    await server.client.todos.remove(created.data.id);
  });
});
