import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FrontDoorResponse, headerBlock, headerBlocksWork, useHeaderBlocks } from './header-block.js';

const fixed = headerBlock({
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self';object-src 'none'",
  vary: 'Origin',
  'cache-control': 'no-cache',
});
const body = '{"status":"ok"}';

/** Answers `/block` through the block and `/plain` with the same fields through `writeHead`. */
function answer(request: { url?: string }, response: ServerResponse) {
  const own = ['x-request-id', 'r-1', 'content-type', 'application/json', 'content-length', body.length];
  const status = request.url?.endsWith('304') ? 304 : 200;
  if (request.url?.startsWith('/block')) {
    (response as FrontDoorResponse).writeHeadWith(fixed, status, own);
  } else {
    response.writeHead(status, [...fixed.fields, ...own] as string[]);
  }
  response.end(status === 304 ? undefined : body);
}

/** Sends one raw request and returns everything the server wrote until it closed the socket. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => resolve(received));
    socket.write(request);
  });
}

/** The bytes with the date, which changes each second, blanked out. */
const withoutDate = (raw: string) => raw.replace(/^Date: .*$/gm, 'Date: -');

describe('fixed header blocks', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer({ ServerResponse: FrontDoorResponse as typeof ServerResponse }, answer);
    server.keepAliveTimeout = 200;
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));
  afterEach(() => useHeaderBlocks(true));

  const requests = {
    'HTTP/1.1, then closed by the client': (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\nGET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    'HTTP/1.0': (path: string) => `GET ${path} HTTP/1.0\r\n\r\n`,
    'HTTP/1.0 keep-alive, then closed': (path: string) =>
      `GET ${path} HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET ${path} HTTP/1.0\r\n\r\n`,
  };

  it('is taken up on this Node version', () => {
    expect(headerBlocksWork()).toBe(true);
  });

  for (const [name, request] of Object.entries(requests)) {
    for (const status of ['', '304']) {
      it(`sends the same bytes as writeHead field by field: ${name} ${status}`, async () => {
        const viaBlock = withoutDate(await exchange(port, request(`/block${status}`)));
        const plain = withoutDate(await exchange(port, request(`/plain${status}`)));
        expect(viaBlock).toBe(plain);
        // The fixed fields come first, right after the status line, then the response's own.
        const statusLine = status ? 'HTTP/1.1 304 Not Modified' : 'HTTP/1.1 200 OK';
        expect(viaBlock.startsWith(`${statusLine}\r\n${fixed.wire}x-request-id: r-1\r\n`)).toBe(true);
      });
    }
  }

  it('keeps the connection open between answers, and closes it when asked', async () => {
    const raw = await exchange(port, requests['HTTP/1.1, then closed by the client']('/block'));
    const heads = raw.split(body).filter(Boolean);
    expect(heads).toHaveLength(2);
    expect(heads[0]).toContain('Connection: keep-alive\r\nKeep-Alive: timeout=0\r\n');
    expect(heads[1]).toContain('Connection: close\r\n');
  });

  it('falls back to writeHead field by field with the same bytes', async () => {
    const before = withoutDate(await exchange(port, requests['HTTP/1.0']('/block')));
    useHeaderBlocks(false);
    expect(headerBlocksWork()).toBe(false);
    expect(withoutDate(await exchange(port, requests['HTTP/1.0']('/block')))).toBe(before);
  });

  it('refuses a field writeHead would refuse, and the fields that frame the message', () => {
    expect(() => headerBlock({ 'bad name': 'x' })).toThrow(/Header name/);
    expect(() => headerBlock({ 'x-split': 'a\r\nset-cookie: b' })).toThrow(/Invalid character/);
    for (const framing of ['Content-Length', 'connection', 'Transfer-Encoding', 'date', 'keep-alive']) {
      expect(() => headerBlock({ [framing]: '1' })).toThrow(/frames the message/);
    }
  });

  it('leaves no block behind when writeHead throws', () => {
    const probe = () => {
      const request = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} };
      return new FrontDoorResponse(request as never);
    };
    const failing = probe();
    expect(() => failing.writeHeadWith(fixed, 200, ['bad name', 'x'])).toThrow(/Header name/);
    const next = probe();
    next.writeHead(200, ['x-own', '1']);
    const head = (next as unknown as { _header: string })._header;
    expect(head.startsWith('HTTP/1.1 200 OK\r\nx-own: 1\r\n')).toBe(true);
  });

  it("sends a deferred block with the head written later, its fields replaced by the response's own", async () => {
    const deferred = createServer(
      { ServerResponse: FrontDoorResponse as typeof ServerResponse },
      (request, response) => {
        expect((response as FrontDoorResponse).deferFixedFields(fixed)).toBe(true);
        const own: Record<string, string> = { 'content-type': 'text/plain', 'content-length': '2' };
        if (request.url === '/override') own['x-frame-options'] = 'SAMEORIGIN';
        if (request.url === '/bad') {
          expect(() => response.writeHead(200, { 'x-bad': 'a\nb' })).toThrow(/Invalid character/);
          response.writeHead(500, own);
        } else {
          response.writeHead(200, own);
        }
        response.end('ok');
      },
    );
    await new Promise<void>((listening) => deferred.listen(0, '127.0.0.1', listening));
    try {
      const at = (deferred.address() as AddressInfo).port;
      const plain = await exchange(at, 'GET / HTTP/1.0\r\n\r\n');
      expect(plain.startsWith(`HTTP/1.1 200 OK\r\n${fixed.wire}content-type: text/plain\r\n`)).toBe(true);
      const overridden = await exchange(at, 'GET /override HTTP/1.0\r\n\r\n');
      expect(overridden.match(/^x-frame-options: .*$/gim)).toEqual(['x-frame-options: SAMEORIGIN']);
      expect(overridden).toContain(`content-security-policy: default-src 'self';object-src 'none'\r\n`);
      // A head that fails to build keeps the block for the answer written next.
      const recovered = await exchange(at, 'GET /bad HTTP/1.0\r\n\r\n');
      // (Node keeps the reason phrase of the failed attempt: `500 OK`.)
      expect(recovered.replace(/^HTTP\/1\.1 500 [^\r]*\r\n/, '').startsWith(fixed.wire)).toBe(true);
    } finally {
      await new Promise<void>((closed) => deferred.close(() => closed()));
    }
  });

  it('defers nothing where blocks do not work', () => {
    useHeaderBlocks(false);
    const request = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} };
    const response = new FrontDoorResponse(request as never);
    expect(response.deferFixedFields(fixed)).toBe(false);
    expect(response.fixedBlock).toBeUndefined();
  });
});
