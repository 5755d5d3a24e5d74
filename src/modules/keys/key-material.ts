import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Marks the dashboard's keys, so secret scanners (and people) can tell one when they see it. */
export const KEY_MARK = 'tdk_';
/** Characters shown to recognise a key: the mark and the first 8 random characters. */
export const PREFIX_LENGTH = 12;

// 256 random bits are 43 characters of URL-safe base64 (no padding).
const KEY_SHAPE = /^tdk_[A-Za-z0-9_-]{43}$/;

/** A new key: `tdk_` followed by 43 URL-safe base64 characters (256 random bits). */
export function generateKey(): string {
  return `${KEY_MARK}${randomBytes(32).toString('base64url')}`;
}

/** Lower-case hex SHA-256, the only form in which a key is stored. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Anything else cannot be one of our keys, so it costs no database lookup. */
export function hasKeyShape(presented: string): boolean {
  return presented.length === KEY_MARK.length + 43 && KEY_SHAPE.test(presented);
}

/**
 * Compares a stored hash with the hash of a presented key in constant time. The lookup by hash
 * already found the row; this check keeps the final decision free of early exits whatever the
 * database's own comparison does.
 */
export function sameHash(storedHex: string, presentedHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const presented = Buffer.from(presentedHex, 'hex');
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}
