// Writes an app's per-test results straight into the database, through the built server's own
// packing and identity hashing (`npm run build` first): TESTS tests (50 per spec) × RUNS runs
// spread evenly over DAYS days ending now. Most tests pass; some are flaky (passed on a retry, or
// failed now and then), some broke near the end and fail since, some are always skipped. Every
// tenth run re-runs the commit of the run before it, so same-commit flakiness shows up too.
import { createPackWriter } from '../dist/src/modules/tests/result-pack.js';
import { testIdOf } from '../dist/src/modules/tests/test-identity.js';

const TESTS_PER_SPEC = 50;
const ERROR_STACK = `Error: expect(received).toBe(expected)\n${'    at Object.<anonymous> (src/area/page.spec.ts:42:17)\n'.repeat(6)}`;

/** A small deterministic generator, so two runs of the bench store the same data. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const kindOf = (test) =>
  test % 100 === 7 ? 'flaky' : test % 250 === 11 ? 'broken' : test % 50 === 23 ? 'skipped' : 'stable';

/** What one test did in one run (status, retries, duration). */
function outcome(test, run, runs, next) {
  const base = 40 + ((test * 37) % 1500);
  const durationMs = Math.round(base * (0.8 + next() * 0.4));
  switch (kindOf(test)) {
    case 'skipped':
      return { status: 'skipped', retries: 0, durationMs: 0 };
    case 'broken':
      return run > runs * 0.95
        ? { status: 'failed', retries: 2, durationMs }
        : { status: 'passed', retries: 0, durationMs };
    case 'flaky': {
      const roll = next();
      if (roll < 0.02) return { status: 'failed', retries: 2, durationMs };
      if (roll < 0.12) return { status: 'flaky', retries: 1, durationMs };
      return { status: 'passed', retries: 0, durationMs };
    }
    default:
      return { status: 'passed', retries: 0, durationMs };
  }
}

/**
 * Generates the data and hands it to `sink` table by table, in batches:
 * sink.identities(rows) → ids by key; sink.upload(uploadRow) → id; sink.specs(rows); sink.failures(rows).
 */
export async function generate({ appId, tests, runs, days, now = Date.now() }, sink) {
  const specs = Math.ceil(tests / TESTS_PER_SPEC);
  const specOf = (test) => `src/area-${Math.floor(test / TESTS_PER_SPEC)}/page.spec.ts`;
  const titleOf = (test) =>
    `area ${Math.floor(test / TESTS_PER_SPEC)} › renders state ${test % TESTS_PER_SPEC}`;
  const day = new Date(now).toISOString().slice(0, 10);
  const identities = [];
  for (let test = 0; test < tests; test++) {
    const parts = { spec: specOf(test), title: titleOf(test), project: '' };
    identities.push({ app_id: appId, key: testIdOf(appId, parts), ...parts, last_seen: day });
  }
  const ids = await sink.identities(identities);
  const idOf = identities.map((identity) => ids.get(identity.key));
  const next = random(36);
  const spanMs = days * 86_400_000;
  let results = 0;
  let failures = 0;
  for (let run = 1; run <= runs; run++) {
    const at = new Date(now - spanMs + Math.round((spanMs * run) / (runs + 1))).toISOString();
    const commit = `c${run % 10 === 0 ? run - 1 : run}`.padEnd(40, '0');
    const specRows = [];
    const failureRows = [];
    const totals = { passed: 0, failed: 0, flaky: 0, skipped: 0 };
    for (let spec = 0; spec < specs; spec++) {
      const pack = createPackWriter(TESTS_PER_SPEC * 6);
      const counts = { passed: 0, failed: 0, flaky: 0, skipped: 0 };
      let duration = 0;
      let firstFailure = null;
      for (let test = spec * TESTS_PER_SPEC; test < Math.min(tests, (spec + 1) * TESTS_PER_SPEC); test++) {
        const result = outcome(test, run, runs, next);
        pack.add({ identityId: idOf[test], ...result });
        counts[result.status] += 1;
        duration += result.durationMs;
        if (result.status === 'failed') {
          const message = `expected state ${test % TESTS_PER_SPEC} to render in run ${run}`;
          firstFailure ??= message;
          failureRows.push({
            spec: specOf(test),
            test: titleOf(test),
            message,
            stack: ERROR_STACK,
            location: `${specOf(test)}:42`,
            identity_id: idOf[test],
          });
        }
      }
      for (const status of Object.keys(totals)) totals[status] += counts[status];
      specRows.push({
        spec: specOf(spec * TESTS_PER_SPEC),
        status: counts.failed > 0 ? 'failed' : 'passed',
        tests: counts.passed + counts.failed + counts.flaky + counts.skipped,
        ...counts,
        duration_ms: duration,
        first_failure_message: firstFailure,
        results: pack.finish(),
      });
    }
    const uploadId = await sink.upload({
      app_id: appId,
      run_number: run,
      format: 'junit',
      digest: `bench-${run}`.padEnd(64, '0'),
      specs,
      tests,
      ...totals,
      commit_sha: commit,
      branch: 'main',
      author: 'bench',
      run_url: `https://ci.example.com/runs/${run}`,
      created_at: at,
      uploaded_at: at,
      attempt: 1,
      status: 'ok',
    });
    await sink.specs(specRows.map((row) => ({ upload_id: uploadId, ...row })));
    if (failureRows.length) await sink.failures(failureRows.map((row) => ({ upload_id: uploadId, ...row })));
    results += tests;
    failures += failureRows.length;
  }
  return { results, failures, specs, identities: tests };
}
