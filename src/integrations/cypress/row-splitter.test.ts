import { describe, expect, it } from 'vitest';
import { type Row, RowSplitter } from './row-splitter.js';

/** A small seeded generator: the same documents and cuts on every run. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

/** Feeds `text` cut at `cuts` (byte offsets) and returns every row, or the error thrown. */
function split(text: string | Buffer, cuts: number[] = []): Row[] | Error {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const splitter = new RowSplitter();
  const rows: Row[] = [];
  try {
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      if (cut > from) rows.push(...splitter.push(bytes.subarray(from, cut)));
      from = Math.max(from, cut);
    }
    rows.push(...splitter.end());
    return rows;
  } catch (error) {
    return error as Error;
  }
}

const objectsOf = (elements: unknown[]) =>
  elements.filter((e) => e !== null && typeof e === 'object' && !Array.isArray(e));

// Strings that defeat a naive splitter: the row-end guess `},` inside strings, escaped quotes and
// backslashes (also right before a cut), brackets, and characters of two to four UTF-8 bytes.
const TRICKY = ['},{', '"},', '\\', '\\"', ']', '[{', 'é', '€', '😀', '},\\"x', '\u0000', ''];

function randomValue(next: (below: number) => number, depth: number): unknown {
  switch (next(depth > 2 ? 5 : 7)) {
    case 0:
      return next(1000) - 500;
    case 1:
      return next(2) === 0 ? null : next(2) === 0;
    case 2:
    case 3:
      return TRICKY[next(TRICKY.length)]! + String(next(100));
    case 4:
      return next(10) / 4;
    case 5:
      return Array.from({ length: next(4) }, () => randomValue(next, depth + 1));
    default:
      return randomRow(next, depth + 1);
  }
}

function randomRow(next: (below: number) => number, depth = 0): Row {
  const row: Row = {};
  for (let field = next(6); field > 0; field -= 1)
    row[`f${next(8)}${TRICKY[next(3)]}`] = randomValue(next, depth);
  return row;
}

/** One document: an array of rows (sometimes other elements too), compact or spaced out. */
function randomDocument(next: (below: number) => number): { text: string; elements: unknown[] } {
  const elements = Array.from({ length: next(12) }, () =>
    next(8) === 0 ? randomValue(next, 3) : randomRow(next),
  );
  const text =
    next(3) === 0 ? JSON.stringify(elements, null, next(2) === 0 ? 2 : '\t') : JSON.stringify(elements);
  return { text, elements };
}

describe('RowSplitter', () => {
  it('yields the object elements of a top-level array, however the bytes are cut', () => {
    const next = random(7);
    for (let document = 0; document < 300; document += 1) {
      const { text, elements } = randomDocument(next);
      const length = Buffer.byteLength(text);
      const cuts = Array.from({ length: next(6) }, () => next(length + 1)).sort((a, b) => a - b);
      expect(split(text, cuts), text).toEqual(objectsOf(elements));
    }
  });

  it('yields the same rows when every byte arrives alone', () => {
    const next = random(11);
    for (let document = 0; document < 30; document += 1) {
      const { text, elements } = randomDocument(next);
      const everyByte = Array.from({ length: Buffer.byteLength(text) }, (_, i) => i);
      expect(split(text, everyByte), text).toEqual(objectsOf(elements));
    }
  });

  it('reads rows wrapped in an object under data, rows or results, and only there', () => {
    const rows = [{ a: 1 }, { b: '},{' }];
    const cases: [unknown, Row[]][] = [
      [{ data: rows, total: 2 }, rows],
      [{ total: 2, meta: { data: [{ no: 1 }] }, rows }, rows],
      [{ results: rows, next: null }, rows],
      [{ data: [rows[0]], rows: [rows[1]] }, rows],
      [{ other: rows }, []],
      [{ data: [] }, []],
    ];
    for (const [document, expected] of cases) {
      const text = JSON.stringify(document);
      for (let cut = 0; cut <= text.length; cut += 1) expect(split(text, [cut]), text).toEqual(expected);
    }
    expect(split('{"d\\u0061ta": [{"x": 1}]}')).toEqual([{ x: 1 }]);
  });

  it('reads wrapped rows among other fields of any shape, however the bytes are cut', () => {
    const next = random(5);
    for (let document = 0; document < 200; document += 1) {
      const { elements } = randomDocument(next);
      const text = JSON.stringify({
        before: randomValue(next, 0),
        [['data', 'rows', 'results'][next(3)]!]: elements,
        after: randomValue(next, 0),
      });
      const length = Buffer.byteLength(text);
      const cuts = Array.from({ length: next(6) }, () => next(length + 1)).sort((a, b) => a - b);
      expect(split(text, cuts), text).toEqual(objectsOf(elements));
    }
  });

  it('refuses answers that are not an array or an object of rows', () => {
    for (const text of ['', '  \n', '42', '"rows"', 'null', '{"data": {"a": 1}}', '{"rows": 3}']) {
      expect(split(text), JSON.stringify(text)).toBeInstanceOf(Error);
    }
  });

  it('refuses malformed JSON around and between the rows', () => {
    const malformed = [
      '[{"a":1},]',
      '[,{"a":1}]',
      '[{"a":1},,{"b":2}]',
      '[{"a":1} {"b":2}]',
      '[{"a":1}}',
      '[{"a":1]',
      '[{"a":1}]x',
      '[{"a":1}][]',
      '{"data":[{"a":1}]}{"x":1}',
      '{"data" [{"a":1}]}',
      '[{"a":01}]',
      '[{"a":"\u0001"}]',
      `[${JSON.stringify({ a: '},{' }).replace('"a"', 'a')}]`,
    ];
    for (const text of malformed) {
      for (let cut = 0; cut <= text.length; cut += 1) {
        expect(split(text, [cut]), `${text} cut at ${cut}`).toBeInstanceOf(Error);
      }
    }
  });

  it('refuses an answer cut short anywhere', () => {
    const next = random(3);
    for (let document = 0; document < 40; document += 1) {
      const { text } = randomDocument(next);
      const bytes = Buffer.from(text.trimEnd());
      for (let end = 0; end < bytes.length; end += 1) {
        expect(split(bytes.subarray(0, end)), `${text} ended at ${end}`).toBeInstanceOf(Error);
      }
    }
  });

  it('parses each chunk as it comes, carrying only the unfinished row', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ i, spec: `spec-${i}.cy.ts` }));
    const bytes = Buffer.from(JSON.stringify(rows));
    const splitter = new RowSplitter();
    const sizes: number[] = [];
    for (let from = 0; from < bytes.length; from += 4096) {
      sizes.push(splitter.push(bytes.subarray(from, from + 4096)).length);
    }
    // Every 4 KiB chunk completes about 4096 / 30 rows: none waits for the end of the answer.
    expect(sizes.slice(0, -1).every((count) => count > 100)).toBe(true);
    expect(sizes.reduce((sum, count) => sum + count, 0) + splitter.end().length).toBe(1000);
  });

  it('splits rows whose objects nest, where the guessed row ends are often wrong', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      i,
      attempts: [{ n: 1 }, { n: 2, error: { message: 'x},y' } }],
    }));
    const bytes = Buffer.from(JSON.stringify(rows));
    const splitter = new RowSplitter();
    const seen: Row[] = [];
    for (let from = 0; from < bytes.length; from += 1000) {
      seen.push(...splitter.push(bytes.subarray(from, from + 1000)));
    }
    seen.push(...splitter.end());
    expect(seen).toEqual(rows);
  });
});
