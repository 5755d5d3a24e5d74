import { createHash, randomUUID } from 'node:crypto';
import { type Broker, CHANNELS } from '../../broker/broker.js';
import type { ReportRequestMessage } from '../../broker/channels.js';
import { isCalendarDate } from '../../shared/time.js';

/** The report request message of the spec; `retryCount` is added by the processor on retries. */
export type ReportRequest = ReportRequestMessage;

/** A request id stays unique for an hour; a payload without one only collapses the copies of one publish. */
const REQUEST_ID_WINDOW_MS = 3_600_000;
const PAYLOAD_WINDOW_MS = 5_000;

export function dedupFor(payload: string, request: ReportRequest | undefined) {
  return request?.requestId
    ? { key: `request:${request.requestId}`, windowMs: REQUEST_ID_WINDOW_MS }
    : { key: `payload:${createHash('sha1').update(payload).digest('hex')}`, windowMs: PAYLOAD_WINDOW_MS };
}

/** Reads a message from the channel or the queue; undefined when it is not a report request. */
export function parseReportRequest(message: unknown): ReportRequest | undefined {
  let value = message;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { date, requestId, retryCount } = value as Record<string, unknown>;
  if (typeof date !== 'string' || !isCalendarDate(date)) return undefined;
  const request: ReportRequest = { date };
  if (typeof requestId === 'string' && requestId !== '') request.requestId = requestId;
  if (typeof retryCount === 'number' && Number.isInteger(retryCount) && retryCount >= 0) {
    request.retryCount = retryCount;
  }
  return request;
}

/**
 * Publishes a report request on `e2e:report:generate` and also enqueues it directly (de-duplicated
 * on its request id, like the copies every subscribed worker enqueues), so the request is not lost
 * when no worker happens to be subscribed at that instant. Rejects when the broker is down.
 */
export async function publishReportRequest(broker: Broker, date: string, requestId = randomUUID()) {
  const message: ReportRequest = { date, requestId };
  const payload = JSON.stringify(message);
  const { key, windowMs } = dedupFor(payload, message);
  await broker.reportQueue.enqueue(payload, key, windowMs);
  await broker.publish(CHANNELS.reportGenerate, message);
  return message;
}
