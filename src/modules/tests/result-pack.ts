/**
 * The packed results of one spec of one upload: per test, in the order the reporter listed
 * them, the identity id (unsigned LEB128), one byte of status (2 bits) and retries (6 bits,
 * capped at 63), then the duration in whole milliseconds (unsigned LEB128). A passing test of
 * under 128 ms with an identity id below 2²¹ costs 5 bytes.
 */
export const PACKED_STATUSES = ['passed', 'failed', 'flaky', 'skipped'] as const;
export type PackedStatus = (typeof PACKED_STATUSES)[number];

const STATUS_CODES: Record<PackedStatus, number> = { passed: 0, failed: 1, flaky: 2, skipped: 3 };
const MAX_RETRIES = 63;
/** Durations past ~24 days are noise from a broken clock: capped so a varint stays ≤ 5 bytes. */
const MAX_DURATION_MS = 2_147_483_647;

export interface PackedResult {
  identityId: number;
  status: PackedStatus;
  retries: number;
  durationMs: number;
}

/** Appends results to a growing buffer, doubling it when full. */
export function createPackWriter(initialBytes = 64) {
  let bytes = Buffer.allocUnsafe(initialBytes);
  let length = 0;

  function ensure(extra: number) {
    if (length + extra <= bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, length + extra));
    bytes.copy(grown, 0, 0, length);
    bytes = grown;
  }

  function varint(value: number) {
    let rest = value;
    while (rest >= 0x80) {
      bytes[length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    bytes[length++] = rest;
  }

  return {
    add(result: PackedResult): void {
      ensure(16);
      varint(Math.max(0, Math.trunc(result.identityId)));
      const retries = Math.min(MAX_RETRIES, Math.max(0, Math.trunc(result.retries) || 0));
      bytes[length++] = STATUS_CODES[result.status] | (retries << 2);
      const duration = Number.isFinite(result.durationMs) ? Math.round(result.durationMs) : 0;
      varint(Math.min(MAX_DURATION_MS, Math.max(0, duration)));
    },
    get length() {
      return length;
    },
    /** The packed bytes (a copy, exactly as long as written). */
    finish(): Buffer {
      return Buffer.from(bytes.subarray(0, length));
    },
  };
}

/** Every result of a pack, in order; a truncated tail (never written by the writer) is ignored. */
export function unpackResults(packed: Uint8Array | null | undefined): PackedResult[] {
  const results: PackedResult[] = [];
  if (!packed) return results;
  let at = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    while (at < packed.length) {
      const byte = packed[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
    return NaN;
  };
  while (at < packed.length) {
    const identityId = varint();
    if (at >= packed.length) break;
    const code = packed[at++]!;
    const durationMs = varint();
    if (!Number.isFinite(identityId) || !Number.isFinite(durationMs)) break;
    results.push({ identityId, status: PACKED_STATUSES[code & 3]!, retries: code >> 2, durationMs });
  }
  return results;
}
