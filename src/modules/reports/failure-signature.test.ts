import { describe, expect, it } from 'vitest';
import { cut, failureSignature, firstLine, groupFailures } from './failure-signature.js';

describe('failureSignature', () => {
  it.each([
    [
      'Timed out retrying after 4000ms: Expected to find element: `[data-cy=submit]`, but never found it.',
      'Timed out retrying after <n>ms: Expected to find element: <str>, but never found it.',
    ],
    ['expected 3 to equal 4', 'expected <n> to equal <n>'],
    ['Amount 1,250.50 is not 1.5', 'Amount <n> is not <n>'],
    ['order 5f1d7c2a9e missing', 'order <hex> missing'],
    ['commit ABCDEF1234 not found', 'commit <hex> not found'],
    ['short hex a1b2c is a word here', 'short hex a1b2c is a word here'],
    ['the decade of facade', 'the decade of facade'],
    ['user 3fa85f64-5717-4562-b3fc-2c963f66afa6 not found', 'user <uuid> not found'],
    ['at 2025-03-01T09:15:00.123Z the job stopped', 'at <timestamp> the job stopped'],
    ['at 2025-03-01 09:15:00+02:00 and 2025-03-02', 'at <timestamp> and <timestamp>'],
    ['logged at 09:15:02.5 today', 'logged at <timestamp> today'],
    ['expected "Hello Bob" to equal \'Hello Alice\'', 'expected <str> to equal <str>'],
    ["can't find element 'button.pay'", "can't find element <str>"],
    ['header h1 and login2.cy.ts stay', 'header h1 and login2.cy.ts stay'],
    ['pointer 0x7ffe12 is null', 'pointer <n> is null'],
    ['   \n\n  First   real\tline  \nsecond line 42', 'First real line'],
    [
      'failed on setup with "ConnectionError: refused: gateway at 10.0.0.7:443 is down"',
      'failed on setup with "ConnectionError: <str>"',
    ],
    [
      "raised 'requests.exceptions.ReadTimeoutError: after 30s'",
      "raised 'requests.exceptions.ReadTimeoutError: <str>'",
    ],
    ['threw `TypeError: x is undefined` in render', 'threw `TypeError: <str>` in render'],
    ['raised "ValueError"', 'raised "ValueError"'],
    ['expected "Errors: 3" and "connectionError: no"', 'expected <str> and <str>'],
  ])('%j → %j', (message, signature) => {
    expect(failureSignature(message)).toBe(signature);
  });

  it('makes messages that differ only in varying parts one signature', () => {
    const a = failureSignature('Request 7d3f9a01 failed with 503 at 2025-01-02T10:00:00Z for "alice"');
    const b = failureSignature('Request 00ff12ab failed with 502 at 2025-01-03T11:30:00Z for "bob"');
    expect(a).toBe(b);
    expect(a).toBe('Request <hex> failed with <n> at <timestamp> for <str>');
  });

  it('replaces a quoted string as a whole, whatever it holds', () => {
    expect(failureSignature('expected "id 3fa85f64-5717-4562-b3fc-2c963f66afa6 at 10:00:00"')).toBe(
      'expected <str>',
    );
  });

  it('is at most 200 characters and empty for a message without text', () => {
    expect(failureSignature(`Error: ${'word '.repeat(100)}`)).toHaveLength(200);
    expect(failureSignature('')).toBe('');
    expect(failureSignature(' \n\t\n')).toBe('');
  });
});

describe('text helpers', () => {
  it('firstLine takes the first line with text, trimmed, across line endings', () => {
    expect(firstLine('\r\n  a b \r\nc')).toBe('a b');
    expect(firstLine('x\ry')).toBe('x');
  });

  it('cut never splits a surrogate pair', () => {
    expect(cut('ab😀', 3)).toBe('ab');
    expect(cut('abc', 3)).toBe('abc');
  });
});

describe('groupFailures', () => {
  it('groups by signature, orders by tests then signature, counts distinct sorted specs', () => {
    const groups = groupFailures([
      { spec: 'b.cy.ts', message: 'Timed out after 4000ms', at: '2025-03-01T10:00:00.000Z' },
      { spec: 'a.cy.ts', message: 'Timed out after 6000ms\nstack…', at: '2025-03-02T10:00:00.000Z' },
      { spec: 'b.cy.ts', message: 'Timed out after 4000ms', at: '2025-03-01T11:00:00.000Z' },
      { spec: 'c.cy.ts', message: 'zeta broke', at: '2025-03-01T10:00:00.000Z' },
      { spec: 'c.cy.ts', message: 'alpha broke', at: '2025-03-01T10:00:00.000Z' },
    ]);
    expect(groups).toEqual([
      {
        signature: 'Timed out after <n>ms',
        message: 'Timed out after 6000ms',
        specs: ['a.cy.ts', 'b.cy.ts'],
        tests: 3,
        occurrences: 3,
        lastSeenAt: '2025-03-02T10:00:00.000Z',
      },
      {
        signature: 'alpha broke',
        message: 'alpha broke',
        specs: ['c.cy.ts'],
        tests: 1,
        occurrences: 1,
        lastSeenAt: '2025-03-01T10:00:00.000Z',
      },
      {
        signature: 'zeta broke',
        message: 'zeta broke',
        specs: ['c.cy.ts'],
        tests: 1,
        occurrences: 1,
        lastSeenAt: '2025-03-01T10:00:00.000Z',
      },
    ]);
  });

  it('counts distinct tests (spec and name) apart from failures', () => {
    const at = '2025-03-01T10:00:00Z';
    const [group] = groupFailures([
      { spec: 'pay.spec.ts', test: 'pays', message: 'Timed out after 4000ms', at },
      { spec: 'pay.spec.ts', test: 'pays', message: 'Timed out after 5000ms', at },
      { spec: 'pay.spec.ts', test: 'refunds', message: 'Timed out after 4000ms', at },
      { spec: 'cart.spec.ts', test: 'pays', message: 'Timed out after 4000ms', at },
      { spec: 'pay.spec.ts', test: 'pays', message: 'Timed out after 9000ms', at },
    ]);
    expect(group).toMatchObject({ tests: 3, occurrences: 5, specs: ['cart.spec.ts', 'pay.spec.ts'] });
  });

  it('puts the group of more failures first when both hold as many tests', () => {
    const at = '2025-03-01T10:00:00Z';
    const groups = groupFailures([
      { spec: 's', test: 'a', message: 'alpha broke', at },
      { spec: 's', test: 'b', message: 'beta broke', at },
      { spec: 's', test: 'b', message: 'beta broke', at },
    ]);
    expect(groups.map((group) => [group.signature, group.tests, group.occurrences])).toEqual([
      ['beta broke', 1, 2],
      ['alpha broke', 1, 1],
    ]);
  });

  it('takes the example from the latest occurrence, comparing instants as times', () => {
    const [group] = groupFailures([
      { spec: 's', message: 'failed 1', at: '2025-03-01T10:00:00.500Z' },
      { spec: 's', message: 'failed 2', at: '2025-03-01T10:00:01Z' },
      { spec: 's', message: 'failed 3', at: '2025-03-01T10:00:00Z' },
    ]);
    expect(group).toMatchObject({ message: 'failed 2', lastSeenAt: '2025-03-01T10:00:01Z', tests: 3 });
  });

  it('cuts the example at 300 characters', () => {
    const [group] = groupFailures([{ spec: 's', message: 'x'.repeat(400), at: '2025-03-01T10:00:00Z' }]);
    expect(group!.message).toHaveLength(300);
    expect(group!.signature).toHaveLength(200);
  });

  it('is empty when no failure carries error text', () => {
    expect(
      groupFailures([
        { spec: 's', message: null, at: '2025-03-01T10:00:00Z' },
        { spec: 's', message: '  \n ', at: '2025-03-01T10:00:00Z' },
      ]),
    ).toEqual([]);
    expect(groupFailures([])).toEqual([]);
  });
});
