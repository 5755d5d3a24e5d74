import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of the dashboard that can be shut and opened again on the same port: shut,
 * the browser's connections are refused as they are by a stopped server; open, it answers again.
 */
export interface Door {
  url: string;
  shut(): Promise<void>;
  open(): Promise<void>;
}

export async function openDoor(target: string): Promise<Door> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const remote = connect(Number(targetPort), hostname);
        track(client);
        track(remote);
        client.pipe(remote);
        remote.pipe(client);
      });
      next.once('error', reject);
      // The same port every time, so the page's address stays valid.
      next.listen(port, '127.0.0.1', () => {
        const address = next.address();
        if (address && typeof address === 'object') port = address.port;
        server = next;
        resolve();
      });
    });

  const shut = () =>
    new Promise<void>((resolve) => {
      const current = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      if (current) current.close(() => resolve());
      else resolve();
    });

  await open();
  return { url: `http://127.0.0.1:${port}`, shut, open };
}
