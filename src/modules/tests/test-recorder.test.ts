import { describe, expect, it } from 'vitest';
import type { ReportedTest, TestOutcome } from '../test-results/report-model.js';
import type { IdentityResolver } from './identity-cache.js';
import { unpackResults } from './result-pack.js';
import { testIdOf } from './test-identity.js';
import { createTestRecorder } from './test-recorder.js';

const test = (spec: string, title: string, outcome: TestOutcome = 'passed'): ReportedTest => ({
  spec,
  title,
  titlePath: [title],
  retries: 0,
  outcome,
  durationMs: 10,
});

/** A resolver that answers only when told, numbering identities by title. */
function held(known: Record<string, number> = {}) {
  const asked: { titles: string[]; answer: (ids: number[]) => void; fail: (error: Error) => void }[] = [];
  const knownIds = new Map(
    Object.entries(known).map(([title, id]) => [testIdOf(1, { spec: 'a.ts', title, project: '' }), id]),
  );
  const settled: number[] = [];
  const resolver: IdentityResolver = {
    settle: async () => void settled.push(asked.length),
    known: (_appId, key) => knownIds.get(key),
    resolve: (_appId, identities) =>
      new Promise((answer, fail) =>
        asked.push({ titles: identities.map((item) => item.title), answer, fail }),
      ),
  };
  const record = (recorder: ReturnType<typeof createTestRecorder>, item: ReportedTest) =>
    recorder.onTest(item);
  return { asked, resolver, record, settled };
}

const idsOf = (packed: Buffer | undefined) => unpackResults(packed).map((result) => result.identityId);

describe('test recorder', () => {
  it('hands batches over without waiting, packs them in order, and waits only past its bound', async () => {
    const { asked, resolver, record } = held();
    const recorder = createTestRecorder(1, resolver);
    const waits: (Promise<void> | undefined)[] = [];
    for (let index = 0; index < 250 * 18; index++) {
      record(recorder, test(`s${index % 2}.ts`, `t${index}`));
      if (index % 250 === 249) waits.push(recorder.flushIfDue());
    }
    expect(asked).toHaveLength(18);
    // Once 16 batches are out the reader is told to wait for the oldest.
    expect(waits.slice(0, 15).every((wait) => wait === undefined)).toBe(true);
    expect(waits[15]).toBeInstanceOf(Promise);
    // Answered last first: still packed in the order the tests came.
    for (const batch of [...asked].reverse())
      batch.answer(batch.titles.map((title) => Number(title.slice(1)) + 1));
    const packs = await recorder.finish();
    expect(idsOf(packs.get('s0.ts')).slice(0, 3)).toEqual([1, 3, 5]);
    expect(idsOf(packs.get('s1.ts'))).toHaveLength(2250);
  });

  it('uses the ids it knows without asking, asks once per identity of a batch, keeps failures', async () => {
    const { asked, resolver, record, settled } = held({ known: 42 });
    const recorder = createTestRecorder(1, resolver);
    record(recorder, test('a.ts', 'known'));
    const failed = record(recorder, test('a.ts', 'new', 'failed'));
    record(recorder, test('a.ts', 'new', 'failed'));
    const finished = recorder.finish();
    await Promise.resolve();
    expect(asked.map((batch) => batch.titles)).toEqual([['new']]);
    asked[0]!.answer([7]);
    expect(idsOf((await finished).get('a.ts'))).toEqual([42, 7, 7]);
    expect(recorder.identityOfFailure(failed)).toBe(7);
    // The database settles once, after the last batch it was given.
    expect(settled).toEqual([1]);
  });

  it('hands over the tests gathered so far before telling the reader to wait', () => {
    const { asked, resolver, record } = held();
    const recorder = createTestRecorder(1, resolver);
    for (let index = 0; index < 250 * 16 + 10; index++) record(recorder, test('a.ts', `t${index}`));
    expect(asked).toHaveLength(16);
    expect(recorder.flushIfDue()).toBeInstanceOf(Promise);
    expect(asked).toHaveLength(17);
    expect(asked[16]!.titles).toHaveLength(10);
  });

  it('asks nothing of the database, and does not settle it, when every identity is known', async () => {
    const { asked, resolver, record, settled } = held({ known: 42 });
    const recorder = createTestRecorder(1, resolver);
    record(recorder, test('a.ts', 'known'));
    expect(idsOf((await recorder.finish()).get('a.ts'))).toEqual([42]);
    expect(asked).toEqual([]);
    expect(settled).toEqual([]);
  });

  it('leaves out a spec none of whose tests got an identity', async () => {
    const { asked, resolver, record } = held();
    const recorder = createTestRecorder(1, resolver);
    record(recorder, test('lost.ts', 'x'));
    const finished = recorder.finish();
    await Promise.resolve();
    asked[0]!.answer([0]);
    expect((await finished).has('lost.ts')).toBe(false);
  });

  it('reports a failed batch to whoever waits next, never as an unhandled rejection', async () => {
    const { asked, resolver, record } = held();
    const recorder = createTestRecorder(1, resolver);
    for (let index = 0; index < 500; index++) record(recorder, test('a.ts', `t${index}`));
    asked[0]!.fail(new Error('database gone'));
    asked[1]!.answer(Array.from({ length: 250 }, (_, index) => index + 1));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(recorder.finish()).rejects.toThrow('database gone');
  });
});
