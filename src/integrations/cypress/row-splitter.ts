// Why a splitter of our own: the export is one JSON array of hundreds of thousands of rows, too
// large to hold, so it has to be read as a stream. stream-json (the maintained library for
// bounded-memory JSON streaming) turns every key, string and number into a token object pushed
// through object-mode streams: reading a report of 150,000 rows cost 15 µs a row in all, where
// V8's JSON.parse reads a batch of such rows in under 1 µs a row. No maintained library splits
// an array into bounded parts any faster, so this one only finds where the rows of each chunk
// end and leaves all the parsing, and so all the validation of the rows, to JSON.parse.

import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  isBlank,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  piecesAfter,
  scanRows,
} from './byte-scanner.js';

/** When the answer wraps its rows in an object, they are under one of these keys. */
const WRAPPED_ROWS = /^(data|rows|results)$/;
/** The keys of a wrapping object are read only when they are this short (ours have 4–7 bytes). */
const LONGEST_KEY = 64;
/**
 * Everything outside the rows (brackets, a wrapper's other fields) is kept to be validated at the
 * end; an answer with more than this outside its rows is refused rather than held.
 */
const ENVELOPE_LIMIT = 4 * 1024 * 1024;
/** Bytes carried without a guessed row boundary before they are scanned byte by byte. */
const UNSCANNED_LIMIT = 1024 * 1024;
/** Wrong guesses after which an answer is only scanned byte by byte (nested objects in rows). */
const GUESSES_ALLOWED_TO_MISS = 4;

export type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Splits a JSON answer, fed as byte chunks, into its rows: the elements of a top-level array or,
 * when the answer is an object, of its `data` / `rows` / `results` arrays. Elements that are not
 * objects are dropped. Malformed JSON anywhere throws, from `push` or at the latest from `end`.
 *
 * Memory holds the rows of one chunk and the bytes of the element the chunk ended in. The rows of
 * a chunk are parsed together, up to the last `},` in it: a guess at the end of a row that costs
 * no scanning, and that is right exactly when the bytes up to it parse as whole elements (JSON's
 * grammar reads that prefix the same way inside the whole answer). When the guess fails, or a
 * chunk has none, the bytes are scanned one by one, counting brackets outside strings.
 */
export class RowSplitter {
  private root: 'array' | 'object' | undefined;
  /** Depth of the elements of the rows array being read, or 0 outside one. */
  private rowsDepth = 0;
  /** Nesting depth after the bytes scanned so far, counting objects and arrays alike. */
  private depth = 0;
  private inString = false;
  /** The last byte scanned was a backslash inside a string. */
  private escaped = false;
  /** Rows mode: bytes not yet parsed, starting right after `[` or after a comma between rows. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** How many of the pending bytes were scanned (the scan state is the state after them). */
  private scannedBytes = 0;
  /** Some element of the current rows array was followed by a comma (so one must follow). */
  private commaSeen = false;
  private guessesMissed = 0;
  /** Where the text of each batch is put together (grows to the largest batch, then reused). */
  private scratch = Buffer.alloc(0);
  private envelope: Buffer[] = [];
  private envelopeBytes = 0;
  /** Bytes of the depth-1 string being read in a wrapping object (its candidate key). */
  private keyBytes: number[] = [];
  private lastKey = '';
  /** A rows key and its colon were read: the next value must be the rows array. */
  private rowsNext = false;

  /** The rows completed by this chunk. */
  push(chunk: Buffer): Row[] {
    const rows: Row[] = [];
    this.feed(chunk, rows);
    return rows;
  }

  /** Checks that the answer was complete and well formed (throws otherwise); the last rows. */
  end(): Row[] {
    const rows: Row[] = [];
    // Each scan that reaches the end of a rows array reads on, maybe into another one.
    while (this.rowsDepth !== 0 && this.scanPending(rows));
    if (this.root === undefined) throw new Error('the answer is empty');
    if (this.rowsDepth !== 0 || this.depth !== 0 || this.inString) {
      throw new Error('the answer ended before its JSON did');
    }
    // What surrounded the rows must be valid JSON by itself (`[]` for a bare array).
    JSON.parse(Buffer.concat(this.envelope).toString('utf8'));
    return rows;
  }

  private feed(bytes: Buffer, rows: Row[]): void {
    let from = 0;
    while (from < bytes.length) {
      if (this.rowsDepth !== 0) {
        this.takeRows(from === 0 ? bytes : bytes.subarray(from), rows);
        return;
      }
      from = this.scanEnvelope(bytes, from);
    }
  }

  /** Reads bytes outside any rows array, up to the `[` of one or the end of the chunk. */
  private scanEnvelope(chunk: Buffer, from: number): number {
    let i = from;
    for (; i < chunk.length; i += 1) {
      const byte = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          if (this.depth === 1) this.lastKey = String.fromCharCode(...this.keyBytes);
        }
        if (this.inString && this.depth === 1 && this.keyBytes.length <= LONGEST_KEY)
          this.keyBytes.push(byte);
        continue;
      }
      if (isBlank(byte)) continue;
      if (this.root === undefined) {
        if (byte === OPEN_ARRAY) this.root = 'array';
        else if (byte === OPEN_OBJECT) this.root = 'object';
        else throw new Error('the answer is neither a JSON array nor an object');
        this.depth = 1;
        if (this.root === 'array') return this.enterRows(chunk, from, i);
        continue;
      }
      if (this.rowsNext) {
        this.rowsNext = false;
        if (byte !== OPEN_ARRAY) throw new Error(`"${this.lastKey}" of the answer is not an array`);
        this.depth += 1;
        return this.enterRows(chunk, from, i);
      }
      if (byte === QUOTE) {
        this.inString = true;
        this.keyBytes.length = 0;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth += 1;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) this.depth -= 1;
      else if (byte === COLON && this.depth === 1 && this.root === 'object') {
        this.rowsNext = WRAPPED_ROWS.test(keyText(this.lastKey));
      }
    }
    this.keep(chunk.subarray(from, i));
    return i;
  }

  /** Starts a rows array whose `[` is at `at` (the envelope was scanned from `from`). */
  private enterRows(chunk: Buffer, from: number, at: number): number {
    this.keep(chunk.subarray(from, at + 1));
    this.rowsDepth = this.depth;
    this.commaSeen = false;
    this.resetPending([]);
    return at + 1;
  }

  /** Rows mode: adds bytes of the rows array and parses the rows they complete. */
  private takeRows(bytes: Buffer, rows: Row[]): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.guessesMissed < GUESSES_ALLOWED_TO_MISS) {
      const guess = bytes.lastIndexOf('},');
      if (guess >= 0) {
        const comma = this.pendingBytes - bytes.length + guess + 1;
        const elements = this.tryParse(comma);
        if (elements !== undefined) {
          collect(elements, rows);
          this.commaSeen = true;
          this.resetPending(piecesAfter(this.pending, comma + 1));
          return;
        }
        this.guessesMissed += 1;
      } else if (this.pendingBytes - this.scannedBytes < UNSCANNED_LIMIT) {
        return;
      }
    }
    this.scanPending(rows);
  }

  /**
   * Scans the pending bytes not scanned yet, byte by byte; parses the elements up to the last
   * comma between rows, or up to the `]` that ends the rows array (then reads on after it, and
   * returns true).
   */
  private scanPending(rows: Row[]): boolean {
    const { depth, inString, escaped, lastComma, close } = scanRows(
      this.pending,
      this.scannedBytes,
      this.rowsDepth,
      this.depth,
      this.inString,
      this.escaped,
    );
    if (close >= 0) {
      this.parseBatch(close, rows, true);
      // The `]` and what follows it are read as envelope (which closes the depth).
      const rest = piecesAfter(this.pending, close);
      this.resetPending([]);
      this.rowsDepth = 0;
      for (const piece of rest) this.feed(piece, rows);
      return true;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.scannedBytes = this.pendingBytes;
    if (lastComma >= 0) {
      this.parseBatch(lastComma, rows, false);
      this.commaSeen = true;
      const scanned = this.pendingBytes - lastComma - 1;
      this.pending = piecesAfter(this.pending, lastComma + 1);
      this.pendingBytes = scanned;
      this.scannedBytes = scanned;
    }
    return false;
  }

  /** The elements in the first `end` pending bytes, or undefined when they are not whole ones. */
  private tryParse(end: number): unknown[] | undefined {
    try {
      return JSON.parse(this.arrayText(end)) as unknown[];
    } catch {
      return undefined;
    }
  }

  /** Parses the first `end` pending bytes: the elements between two commas, or before the `]`. */
  private parseBatch(end: number, rows: Row[], last: boolean): void {
    const elements = JSON.parse(this.arrayText(end)) as unknown[];
    // Blanks parse as no element: that is a missing element unless the rows array is empty.
    if (elements.length === 0 && (!last || this.commaSeen)) {
      throw new Error('the answer has an empty element in its rows array');
    }
    collect(elements, rows);
  }

  /** Pending now starts at a boundary between rows: nothing of it is scanned. */
  private resetPending(pieces: Buffer[]): void {
    this.pending = pieces;
    this.pendingBytes = pieces.reduce((sum, piece) => sum + piece.length, 0);
    this.scannedBytes = 0;
    this.depth = this.rowsDepth;
    this.inString = false;
    this.escaped = false;
  }

  /**
   * The first `end` pending bytes as the text of an array (`[` … `]`), copied into one reused
   * buffer and decoded once: adding the brackets to the decoded text instead would make JSON.parse
   * copy the whole text again (about as many bytes allocated as the answer has, for nothing).
   */
  private arrayText(end: number): string {
    if (this.scratch.length < end + 2)
      this.scratch = Buffer.allocUnsafe(Math.max(end + 2, 2 * this.scratch.length));
    const scratch = this.scratch;
    scratch[0] = OPEN_ARRAY;
    let offset = 1;
    for (const piece of this.pending) {
      const length = Math.min(piece.length, end + 1 - offset);
      if (length <= 0) break;
      piece.copy(scratch, offset, 0, length);
      offset += length;
    }
    scratch[offset] = CLOSE_ARRAY;
    return scratch.toString('utf8', 0, offset + 1);
  }

  private keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.envelopeBytes += bytes.length;
    if (this.envelopeBytes > ENVELOPE_LIMIT) {
      throw new Error('the answer holds more than 4 MiB outside its rows');
    }
    // A copy: a view would keep the whole chunk alive.
    this.envelope.push(Buffer.from(bytes));
  }
}

function collect(elements: unknown[], rows: Row[]): void {
  for (const element of elements) if (isRow(element)) rows.push(element);
}

/** The text of a key as written between its quotes (escapes decoded), or '' when it is not one. */
function keyText(raw: string): string {
  if (raw.length > LONGEST_KEY) return '';
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return '';
  }
}
