import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, isInternalAddress } from './address-rule.js';

/** How one POST to a webhook ended. `status` is null when no HTTP answer came. */
export type SendOutcome =
  | { status: number; retryAfterMs: number | undefined; durationMs: number }
  | { status: null; failure: 'timeout' | 'connection' | 'refused'; error: string; durationMs: number };

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Refuse hosts that are or resolve to internal addresses (checked on the address connected to). */
  refuseInternal: boolean;
}

class InternalTargetError extends Error {}

/** Longest `Retry-After` honoured; a receiver asking for more is retried after this. */
export const MAX_RETRY_AFTER_MS = 3_600_000;
const USER_AGENT = 'e2e-dashboard-webhooks/1';

/**
 * Resolves like `dns.lookup`, but fails when any address of the host is internal. Checking the
 * addresses the socket is about to use (not an earlier lookup) leaves no window for a DNS answer
 * that changes between the check and the connection.
 */
const guardedLookup = ((hostname: string, options: LookupOptions, callback: (...args: unknown[]) => void) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error);
    if (addresses.some((entry) => isInternalAddress(entry.address))) {
      return callback(
        new InternalTargetError('target resolves to a private, loopback or link-local address'),
      );
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}) as unknown as LookupFunction;

/**
 * POSTs one webhook body. Never throws and never reports the URL (it is a credential for Slack
 * and Teams): failures are described by their kind and error code only.
 */
export function sendWebhook(request: SendRequest): Promise<SendOutcome> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  const target = new URL(request.url);
  const host = bareHost(target);
  if (request.refuseInternal && isIP(host) !== 0 && isInternalAddress(host)) {
    return Promise.resolve({
      status: null,
      failure: 'refused',
      error: 'refused: the target is a private, loopback or link-local address',
      durationMs: 0,
    });
  }
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const outgoing = transport.request(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(request.body)),
        'user-agent': USER_AGENT,
        ...request.headers,
      },
      ...(request.refuseInternal ? { lookup: guardedLookup } : {}),
    });
    const deadline = setTimeout(() => {
      finish({
        status: null,
        failure: 'timeout',
        error: `no answer within ${request.timeoutMs} ms`,
        durationMs: elapsed(),
      });
      outgoing.destroy();
    }, request.timeoutMs);
    outgoing.on('response', (response) => {
      // The body is not needed; reading it lets the socket close normally, and a body that
      // never ends is cut off after the time-out instead of holding the socket forever.
      response.resume();
      response.on('error', () => undefined);
      const drainLimit = setTimeout(() => outgoing.destroy(), request.timeoutMs);
      drainLimit.unref();
      response.on('close', () => clearTimeout(drainLimit));
      finish({
        status: response.statusCode ?? 0,
        retryAfterMs: parseRetryAfter(response.headers['retry-after']),
        durationMs: elapsed(),
      });
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof InternalTargetError) {
        finish({
          status: null,
          failure: 'refused',
          error: `refused: ${error.message}`,
          durationMs: elapsed(),
        });
        return;
      }
      finish({
        status: null,
        failure: 'connection',
        error: `connection failed (${error.code ?? 'network error'})`,
        durationMs: elapsed(),
      });
    });
    outgoing.end(request.body);
  });
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now (capped). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    // An HTTP date names its weekday and month; bare numbers like "-5" are not dates here.
    if (!/[a-z]/i.test(trimmed)) return undefined;
    const date = Date.parse(trimmed);
    if (Number.isNaN(date)) return undefined;
    ms = Math.max(0, date - now);
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}
