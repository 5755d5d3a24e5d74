import { randomUUID } from 'node:crypto';
import { createRedisBroker } from '../broker/redis-broker.js';
import type { Config } from '../config/config.js';
import { isCalendarDate, todayUtc } from '../shared/time.js';
import { publishReportRequest } from '../modules/reports/report-requests.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/**
 * `dashboard report [<date>]`: publishes `{date, requestId}` on `e2e:report:generate` (REDIS_URL).
 * The embedded broker lives inside the server process, so without REDIS_URL the request goes
 * through the server's API instead (`GET /api/e2e_run_report?date=…&force=true` at API_BASE_URL).
 */
export async function reportCommand(args: string[], config: Config, io: CliIo): Promise<number> {
  const date = args[0] ?? todayUtc();
  if (args.length > 1 || !isCalendarDate(date)) {
    io.err('Usage: dashboard report [YYYY-MM-DD]   (a real calendar date; default today, UTC)');
    return 64;
  }
  if (config.redisUrl) {
    const broker = createRedisBroker({ url: config.redisUrl, namespace: config.redisNamespace });
    try {
      const message = await publishReportRequest(broker, date, randomUUID());
      io.out(`published report request for ${date} (requestId ${message.requestId})`);
      return 0;
    } catch (error) {
      io.err(`could not publish: the broker at REDIS_URL is unavailable (${(error as Error).message})`);
      return 69;
    } finally {
      await broker.close();
    }
  }
  const url = new URL('/api/e2e_run_report', config.apiBaseUrl);
  url.searchParams.set('date', date);
  url.searchParams.set('force', 'true');
  try {
    const response = await fetch(url, {
      headers: { 'x-api-key': config.apiKey },
      signal: AbortSignal.timeout(config.externalTimeoutMs),
    });
    if (response.status !== 202) {
      io.err(`the server answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      return 69;
    }
    io.out(`report generation for ${date} requested through ${url.origin}`);
    return 0;
  } catch (error) {
    io.err(`could not reach the server at ${url.origin} (${(error as Error).message}); is it running?`);
    return 69;
  }
}
