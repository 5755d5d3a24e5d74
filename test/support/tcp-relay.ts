import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { migrateToLatest, openDatabase } from '../../src/db/database.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { TEST_POSTGRES_URL } from './service-urls.js';

/** A TCP relay (to PostgreSQL) that a test can cut, as a server restart does, and restore. */
export async function startRelay(target: { host: string; port: number }, port = 0) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    sockets.add(client).add(upstream);
    const forget = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', forget).on('close', forget);
    upstream.on('error', forget).on('close', forget);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async cut() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A fresh, migrated PostgreSQL database with a relay in front of it: `relayedUrl` goes through the
 * relay (cut it to play an outage), `testDb` still reaches the server directly. The database's
 * drop is pushed onto `cleanups`.
 */
export async function relayedPostgres(cleanups: (() => Promise<void>)[]): Promise<{
  testDb: TestDatabase;
  relay: Awaited<ReturnType<typeof startRelay>>;
  relayedUrl: string;
  /** A new relay on the cut one's port: the server is reachable again at `relayedUrl`. */
  restore: () => ReturnType<typeof startRelay>;
}> {
  const testDb = await createTestDatabase('postgres');
  cleanups.push(() => testDb.drop());
  const direct = openDatabase(testDb.config);
  await migrateToLatest(direct.db);
  await direct.close();
  const upstream = new URL(TEST_POSTGRES_URL);
  const target = { host: upstream.hostname, port: Number(upstream.port || 5432) };
  const relay = await startRelay(target);
  const relayed = new URL(testDb.url);
  relayed.port = String(relay.port);
  return { testDb, relay, relayedUrl: relayed.toString(), restore: () => startRelay(target, relay.port) };
}
