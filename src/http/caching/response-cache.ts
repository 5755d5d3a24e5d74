import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { ALL_TABLES } from '../../db/write-tracking.js';

/** A serialized 200 answer, ready to be sent again as it is. */
export interface CachedResponse {
  /**
   * The answer's bytes: encoded once when stored, so each send hands the socket a buffer instead
   * of a string to encode again (tens of kilobytes for a list).
   */
  readonly body: Buffer;
  readonly etag: string;
  /**
   * The strong tag of each representation: the body's tag with the encoding appended, as
   * validators must differ when the bytes do. Any of them revalidates the entry.
   */
  readonly tags: Readonly<Record<ContentEncoding | 'identity', string>>;
  readonly contentType: string;
  /** Tables the answer was read from: a write to any of them drops it. */
  readonly tables: readonly string[];
  /** The route pattern that produced it (the metrics label of a request it answers). */
  readonly route: string;
  readonly expiresAt: number;
  /** Compressed copies, made on the first request that accepts each encoding. */
  readonly encoded: Partial<Record<ContentEncoding, Buffer>>;
}

export type ContentEncoding = 'br' | 'gzip';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * The compressed body of a cached answer, made once per entry (a cached answer is sent many
 * times, so compressing it pays; an uncached one would be compressed on every request).
 */
export function encodedBody(entry: CachedResponse, encoding: ContentEncoding): Buffer {
  let body = entry.encoded[encoding];
  if (!body) {
    body =
      encoding === 'br'
        ? brotliCompressSync(entry.body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 5,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          })
        : gzipSync(entry.body, { level: 6 });
    entry.encoded[encoding] = body;
  }
  return body;
}

export interface ResponseCacheOptions {
  /** Safety net: an entry lives at most this long even if no invalidation reaches it. */
  ttlMs: number;
  /** Oldest entries are evicted beyond this count (bounds memory against many distinct queries). */
  maxEntries?: number;
  /** Milliseconds since the epoch; tests move it to cross midnight. */
  now?: () => number;
}

/**
 * A token taken before reading the database: the answer may be stored only if no invalidation
 * happened meanwhile, otherwise a read that raced a write could park old rows in the cache.
 */
export type ReadTicket = number;

export interface ResponseCache {
  readonly enabled: boolean;
  get(key: string): CachedResponse | undefined;
  ticket(): ReadTicket;
  /** Stores the answer unless an invalidation happened since `ticket`; returns the entry either way. */
  store(
    key: string,
    ticket: ReadTicket,
    answer: { body: string; contentType: string; tables: readonly string[]; route: string },
  ): CachedResponse;
  /** Drops every entry read from one of `tables` (`*` drops everything). */
  invalidate(tables: Iterable<string>): void;
  clear(): void;
  readonly size: number;
}

const DAY_MS = 86_400_000;

/** Strong validator of a body: its SHA-1, enough to tell two JSON answers apart. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** True when an If-None-Match header names `etag` (or is `*`); weak forms compare equal too. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** What a cached answer is sent as: 304, or the body in one encoding, under that encoding's tag. */
export interface Representation {
  readonly status: 200 | 304;
  readonly etag: string;
  readonly encoding: ContentEncoding | undefined;
  /** Undefined for a 304. */
  readonly body: Buffer | undefined;
}

/**
 * Picks the representation of a cached answer for a request's `Accept-Encoding` (already reduced
 * to its preferred encoding) and `If-None-Match`. A client that changed its Accept-Encoding (a
 * browser's fetch and a script, say) still holds the current content: any encoding's tag
 * revalidates it.
 */
export function representationOf(
  entry: CachedResponse,
  preferred: ContentEncoding | undefined,
  ifNoneMatch: string | undefined,
): Representation {
  const encoding = entry.body.length >= COMPRESS_MIN_BYTES ? preferred : undefined;
  const etag = entry.tags[encoding ?? 'identity'];
  if (ifNoneMatch !== undefined) {
    const { identity, br, gzip } = entry.tags;
    if ([etag, identity, br, gzip].some((tag) => matchesIfNoneMatch(ifNoneMatch, tag))) {
      return { status: 304, etag, encoding, body: undefined };
    }
  }
  return { status: 200, etag, encoding, body: encoding ? encodedBody(entry, encoding) : entry.body };
}

/**
 * In-process cache of serialized read answers keyed by URL. Entries expire at the earlier of the
 * TTL and the next midnight UTC, because several answers count "today's" rows (the
 * `e2eRunsQuantity` of an application) and change when the date does without any write.
 */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const maxEntries = options.maxEntries ?? 1000;
  const now = options.now ?? Date.now;
  // Least recently used answers go first once `maxEntries` are kept; expiry is checked here (the
  // injected clock, which tests move), not by the library.
  const entries = new LRUCache<string, CachedResponse>({ max: maxEntries });
  // Bumped by every invalidation; a ticket is the value seen when a read began.
  let generation = 0;
  const enabled = options.ttlMs > 0;

  return {
    enabled,
    get size() {
      return entries.size;
    },
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry;
    },
    ticket: () => generation,
    store(key, ticket, answer) {
      const at = now();
      const nextMidnight = (Math.floor(at / DAY_MS) + 1) * DAY_MS;
      const body = Buffer.from(answer.body, 'utf8');
      const etag = etagOf(body);
      const entry: CachedResponse = {
        ...answer,
        body,
        etag,
        tags: { identity: etag, br: `${etag.slice(0, -1)}-br"`, gzip: `${etag.slice(0, -1)}-gzip"` },
        encoded: {},
        expiresAt: Math.min(at + options.ttlMs, nextMidnight),
      };
      if (!enabled || ticket !== generation) return entry;
      entries.set(key, entry);
      return entry;
    },
    invalidate(tables) {
      generation += 1;
      const written = new Set(tables);
      if (written.has(ALL_TABLES)) {
        entries.clear();
        return;
      }
      const stale: string[] = [];
      for (const [key, entry] of entries.entries()) {
        if (entry.tables.some((table) => written.has(table))) stale.push(key);
      }
      for (const key of stale) entries.delete(key);
    },
    clear() {
      generation += 1;
      entries.clear();
    },
  };
}
