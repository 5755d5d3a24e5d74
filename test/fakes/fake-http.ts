import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Faults every fake server can inject, switched by assignment in tests. */
export interface FakeFaults {
  /** Requests are accepted and never answered (time-out tests). */
  hang: boolean;
  /** Every request is answered with this status and the service's own error body. */
  failWith: number | undefined;
}

export const noFaults = (): FakeFaults => ({ hang: false, failWith: undefined });

/** A JSON answer; `headers` may add to or replace the content type (a service's own spelling). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** Listens on an ephemeral 127.0.0.1 port; `close` also drops hanging connections. */
export async function listenOnLoopback(
  server: Server,
): Promise<{ origin: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
