// The bytes of JSON that matter to finding where rows end, the byte-by-byte scan of a rows array
// (the fallback of row-splitter.ts when its cheap guess at a row boundary does not hold) and the
// cutting of the scanned pieces at a boundary.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

export const isBlank = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** Where a scan of a rows array stopped, and the state to resume from after its last byte. */
export interface RowsScan {
  depth: number;
  inString: boolean;
  /** The last byte scanned was a backslash inside a string. */
  escaped: boolean;
  /** Offset of the last comma between rows, or -1. */
  lastComma: number;
  /** Offset of the `]` that ends the rows array, or -1 when the bytes end first. */
  close: number;
}

/**
 * Scans `pieces` (one run of bytes) from offset `from` on, counting brackets outside strings,
 * starting in the state the scan of the bytes before `from` left; stops at the `]` that closes
 * the array of depth `rowsDepth`.
 */
export function scanRows(
  pieces: readonly Buffer[],
  from: number,
  rowsDepth: number,
  startDepth: number,
  startInString: boolean,
  startEscaped: boolean,
): RowsScan {
  let depth = startDepth;
  let inString = startInString;
  let skip = startEscaped;
  let lastComma = -1;
  let close = -1;
  let offset = 0;
  for (const piece of pieces) {
    const length = piece.length;
    let i = Math.max(0, from - offset);
    if (i >= length) {
      offset += length;
      continue;
    }
    if (skip) {
      skip = false;
      i += 1;
    }
    // The hot loop of an answer whose rows defeat the guess: every byte passes here once.
    for (; i < length; i += 1) {
      const byte = piece[i]!;
      if (inString) {
        if (byte === QUOTE) inString = false;
        else if (byte === BACKSLASH) i += 1;
      } else if (byte === QUOTE) inString = true;
      else if (byte === COMMA) {
        if (depth === rowsDepth) lastComma = offset + i;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (depth === rowsDepth) {
          close = offset + i;
          break;
        }
        depth -= 1;
      }
    }
    // A backslash as a piece's last byte: the byte it escapes opens the next piece.
    if (i > length) skip = true;
    if (close >= 0) break;
    offset += length;
  }
  return { depth, inString, escaped: skip, lastComma, close };
}

/** The bytes of `pieces` from offset `start` on, as pieces (views, no copy). */
export function piecesAfter(pieces: readonly Buffer[], start: number): Buffer[] {
  const after: Buffer[] = [];
  let offset = 0;
  for (const piece of pieces) {
    if (offset + piece.length > start) after.push(piece.subarray(Math.max(0, start - offset)));
    offset += piece.length;
  }
  return after;
}
