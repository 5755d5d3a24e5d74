import net from 'node:net';

import { TEST_POSTGRES_URL, TEST_REDIS_URL } from './service-urls.js';

export { TEST_POSTGRES_URL, TEST_REDIS_URL };

function answers(url: string, fallbackPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || fallbackPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Importing this module probes both servers, so only the integration and browser tiers import it
 * (test/unit/tiers.test.ts checks that the unit tier never does).
 *
 * PostgreSQL and Redis suites are mandatory in CI (`CI` set): a missing server fails the run.
 * Locally they are skipped, loudly, when the server does not answer.
 */
async function requireService(name: string, url: string, port: number): Promise<boolean> {
  if (await answers(url, port)) return true;
  if (process.env.CI) throw new Error(`${name} at ${url} does not answer, and CI requires it`);
  process.stderr.write(
    `\n*** ${name} at ${url} does not answer: its suites are SKIPPED (set CI=1 to fail instead)\n`,
  );
  return false;
}

export const postgresAvailable = await requireService('PostgreSQL', TEST_POSTGRES_URL, 5432);
export const redisAvailable = await requireService('Redis', TEST_REDIS_URL, 6379);
