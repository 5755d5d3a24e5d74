import { describe, expect, it } from 'vitest';
import { inspectSource, measureFunctions } from '../../../scripts/code-size.js';

/** `count` statements of one line each. */
const statements = (count: number, indent = '    ') =>
  Array.from({ length: count }, (_, i) => `${indent}total += ${i};`).join('\n');

/** A method of `bodyLines` statements plus its header and closing lines. */
const method = (name: string, bodyLines: number) =>
  `    ${name}() {\n      let total = 0;\n${statements(bodyLines, '      ')}\n      return total;\n    },`;

const factory = (methods: string[], ownStatements = 0) =>
  [
    'export function createThing() {',
    '  let total = 0;',
    ...(ownStatements > 0 ? [statements(ownStatements, '  ')] : []),
    '  return {',
    ...methods,
    '  };',
    '}',
  ].join('\n');

const names = (file: string, text: string) => inspectSource(file, text).map((f) => f.what);

describe('size report measurement', () => {
  it('passes a factory whose methods are short, however many there are', () => {
    const text = factory(Array.from({ length: 12 }, (_, i) => method(`m${i}`, 20)));
    const [outer] = measureFunctions('thing.ts', text);
    expect(outer!.span).toBeGreaterThan(250);
    // The factory's own lines: its header, `let`, `return {`, `};` and the closing brace.
    expect(outer!.own).toBe(5);
    expect(inspectSource('thing.ts', text)).toEqual([]);
  });

  it('lists a method over 80 lines inside a factory, by its own name and count', () => {
    const text = factory([method('short', 10), method('long', 79)]);
    const findings = inspectSource('thing.ts', text);
    // 79 statements, `let`, `return`, the header and the closing line.
    expect(findings).toEqual([{ file: 'thing.ts', what: 'long', lines: 83 }]);
  });

  it('lists a factory with a long body of its own even when its methods are short', () => {
    const text = factory([method('a', 5), method('b', 5)], 80);
    expect(names('thing.ts', text)).toEqual(['createThing']);
    expect(measureFunctions('thing.ts', text)[0]!.own).toBe(85);
  });

  it('keeps one-line callbacks in the count of the function that calls them', () => {
    const lines = Array.from({ length: 85 }, (_, i) => `  rows.map((row) => row + ${i});`);
    const text = `export function mapAll(rows: number[]) {\n${lines.join('\n')}\n}`;
    expect(names('map.ts', text)).toEqual(['mapAll']);
  });

  it('measures a nested callback on its own and names it by its call', () => {
    const text = [
      'export function outer(list: number[]) {',
      '  return list.map((item) => {',
      '    let total = item;',
      statements(85),
      '    return total;',
      '  });',
      '}',
    ].join('\n');
    expect(names('outer.ts', text)).toEqual(['list.map callback']);
  });

  it('leaves out React components and route tables, but not a long handler inside a route table', () => {
    const component = `export function Page() {\n  let total = 0;\n${statements(90, '  ')}\n  return null;\n}`;
    expect(names('page.tsx', component)).toEqual([]);
    expect(names('page.ts', component)).toEqual(['Page']);
    const routes = `export function routes(app: any) {\n  let total = 0;\n${statements(90, '  ')}\n  app.get('/x', () => total);\n}`;
    expect(names('routes.ts', routes)).toEqual([]);
  });

  it('lists a file over 300 lines', () => {
    const text = Array.from({ length: 301 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
    expect(inspectSource('big.ts', text)).toEqual([{ file: 'big.ts', what: '(file)', lines: 301 }]);
    expect(inspectSource('big.ts', text.split('\n').slice(1).join('\n'))).toEqual([]);
  });
});
