/**
 * The spec aggregator's store of spec runs ("cells"): flags, run index, instants and failure
 * author per cell in typed arrays, so memory grows by a few bytes per spec run.
 */

export const COUNTED = 1;
export const FAILED = 2;
export const FLAKY = 4;
const SEEN = 8;

const CHUNK_BITS = 14;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;
export const NONE = -1;

/** A cell's run index shares a 32-bit word with its flags (top byte): 16 million runs a project. */
const RUN_BITS = 24;
const RUN_MASK = (1 << RUN_BITS) - 1;
/** Author keys above this fall back to the run's author (a window never has that many). */
const MAX_AUTHOR_KEY = 0xffff;

/**
 * A spec's run ("cell") is 14 bytes in typed arrays allocated in fixed chunks, so a 200 MB answer,
 * where nearly every row is a spec run of its own, costs a few megabytes and never a copy of the
 * whole store when it grows. A spec's cells form a chain newest first. Most cells hold one row,
 * so only the latest instant is stored; a cell whose rows span time keeps its earliest instant in
 * a small side map. The commit author is mostly a property of the run (kept once per run by the
 * caller); a cell only remembers, as a key into a small table of names, the author its own first
 * failing row carried, because that is the author of the spec's failure even when rows of one run
 * disagree.
 */
export class CellStore {
  private runAndFlags: Uint32Array[] = [];
  private next: Int32Array[] = [];
  private latest: Uint32Array[] = [];
  private failureAuthor: Uint16Array[] = [];
  private earliestWhenEarlier = new Map<number, number>();
  size = 0;

  add(runIndex: number, next: number): number {
    const id = this.size;
    if ((id & CHUNK_MASK) === 0) {
      this.runAndFlags.push(new Uint32Array(CHUNK_SIZE));
      this.next.push(new Int32Array(CHUNK_SIZE));
      this.latest.push(new Uint32Array(CHUNK_SIZE));
      this.failureAuthor.push(new Uint16Array(CHUNK_SIZE));
    }
    const chunk = id >>> CHUNK_BITS;
    const slot = id & CHUNK_MASK;
    this.runAndFlags[chunk]![slot] = runIndex & RUN_MASK;
    this.next[chunk]![slot] = next;
    this.size += 1;
    return id;
  }

  runOf = (id: number) => this.runAndFlags[id >>> CHUNK_BITS]![id & CHUNK_MASK]! & RUN_MASK;
  nextOf = (id: number) => this.next[id >>> CHUNK_BITS]![id & CHUNK_MASK]!;
  flagsOf = (id: number) => this.runAndFlags[id >>> CHUNK_BITS]![id & CHUNK_MASK]! >>> RUN_BITS;
  latestOf = (id: number) => this.latest[id >>> CHUNK_BITS]![id & CHUNK_MASK]!;
  earliestOf = (id: number) => this.earliestWhenEarlier.get(id) ?? this.latestOf(id);
  /** 0 when no failing row of the cell named an author, else the author's table index + 1. */
  failureAuthorOf = (id: number) => this.failureAuthor[id >>> CHUNK_BITS]![id & CHUNK_MASK]!;

  setFailureAuthor(id: number, authorKey: number): void {
    const chunk = this.failureAuthor[id >>> CHUNK_BITS]!;
    if (chunk[id & CHUNK_MASK] === 0 && authorKey <= MAX_AUTHOR_KEY) chunk[id & CHUNK_MASK] = authorKey;
  }

  /** Folds one row into its cell; a first counted row replaces what noTests rows had set. */
  record(id: number, offsetMs: number, rowFlags: number): void {
    const chunk = id >>> CHUNK_BITS;
    const slot = id & CHUNK_MASK;
    const words = this.runAndFlags[chunk]!;
    const latest = this.latest[chunk]!;
    const before = words[slot]! >>> RUN_BITS;
    const counted = (rowFlags & COUNTED) !== 0;
    if (before === 0 || (counted && (before & COUNTED) === 0)) {
      latest[slot] = offsetMs;
      // A cell without rows never had an earlier instant: most rows open a cell, so skip the map.
      if (before !== 0) this.earliestWhenEarlier.delete(id);
    } else if (counted || (before & COUNTED) === 0) {
      const earliest = Math.min(this.earliestOf(id), offsetMs);
      const newest = Math.max(latest[slot]!, offsetMs);
      latest[slot] = newest;
      if (earliest < newest) this.earliestWhenEarlier.set(id, earliest);
    }
    const flags = before | SEEN | (counted ? rowFlags : 0);
    words[slot] = (words[slot]! & RUN_MASK) | (flags << RUN_BITS);
  }
}
