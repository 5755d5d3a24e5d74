import { PACKED_STATUSES, type PackedStatus } from './result-pack.js';

/**
 * Calls `visit` with each result of a pack (format: result-pack.ts), without building an object
 * per result: a window's lists and a test's page walk millions of them. Stops where
 * unpackResults stops (a truncated tail, never written by the writer, is ignored).
 */
export function walkPack(
  packed: Uint8Array | null | undefined,
  visit: (identityId: number, status: PackedStatus, durationMs: number) => void,
): void {
  if (!packed) return;
  const end = packed.length;
  let at = 0;
  while (at < end) {
    let identityId = 0;
    let scale = 1;
    let byte = 0x80;
    while (at < end && byte >= 0x80) {
      byte = packed[at++]!;
      identityId += (byte & 0x7f) * scale;
      scale *= 0x80;
    }
    if (byte >= 0x80 || at >= end) return;
    const code = packed[at++]!;
    let durationMs = 0;
    scale = 1;
    byte = 0x80;
    while (at < end && byte >= 0x80) {
      byte = packed[at++]!;
      durationMs += (byte & 0x7f) * scale;
      scale *= 0x80;
    }
    if (byte >= 0x80) return;
    visit(identityId, PACKED_STATUSES[code & 3]!, durationMs);
  }
}
