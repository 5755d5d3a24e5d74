import { describe, expect, it } from 'vitest';
import type { Verdict, VerdictFailure } from '../verdict.schema.js';
import { commentBody, commentMarker, statusDescription } from './feedback-text.js';

const failure = (overrides: Partial<VerdictFailure>): VerdictFailure => ({
  testId: 'id',
  spec: 'cart.spec.ts',
  title: 'adds',
  class: 'new',
  error: 'Error: boom',
  since: null,
  flakeRate: null,
  ticketKey: null,
  suspects: [],
  ...overrides,
});

const verdict = (failures: VerdictFailure[], overrides: Partial<Verdict> = {}): Verdict => {
  const counts = { new: 0, failing_on_default_branch: 0, known_flaky: 0, quarantined: 0 };
  for (const f of failures) counts[f.class] += 1;
  return {
    appId: 1,
    runNumber: 412,
    commitSha: 'abc',
    branch: 'feature',
    status: counts.new > 0 ? 'fail' : 'pass',
    errored: false,
    counts,
    failures,
    url: 'https://dash.example.com/apps/1/runs/412',
    ...overrides,
  };
};

const testUrl = (id: string) => `https://dash.example.com/apps/1/tests/${id}`;

describe('status description', () => {
  it('names the counts, new first, within 140 characters', () => {
    const v = verdict([
      failure({ class: 'new' }),
      failure({ class: 'new' }),
      failure({ class: 'known_flaky' }),
      failure({ class: 'quarantined' }),
    ]);
    expect(statusDescription(v)).toBe('2 new failures · 1 known flaky · 1 quarantined');
    expect(statusDescription(verdict([]), 412)).toBe('all 412 tests passed');
    const many = verdict([], {
      counts: { new: 10 ** 130, failing_on_default_branch: 1, known_flaky: 1, quarantined: 1 },
    });
    expect(statusDescription(many).length).toBeLessThanOrEqual(140);
  });
});

describe('comment body', () => {
  it('carries the marker, groups new first with up to 3 suspects, and says "and N more" after 20 rows', () => {
    const suspects = [1, 2, 3, 4].map((n) => ({
      sha: `${n}`.repeat(40),
      author: `dev${n}`,
      message: 'm',
      pullRequest: 10 + n,
    }));
    const failures = [
      failure({ class: 'quarantined', testId: 'q', ticketKey: 'QA-7' }),
      failure({ class: 'new', testId: 'n', suspects }),
      ...Array.from({ length: 25 }, (_, i) =>
        failure({ class: 'known_flaky', testId: `f${i}`, title: `t|${i}` }),
      ),
    ];
    const body = commentBody({
      appCode: 'shop',
      appName: 'Shop',
      verdict: verdict(failures),
      testsPassed: 3,
      testUrl,
    });
    expect(body.startsWith(commentMarker('shop'))).toBe(true);
    expect(body.indexOf('New failures')).toBeLessThan(body.indexOf('Known flaky'));
    expect(body).toContain('#11 1111111 by dev1, #12 2222222 by dev2, #13 3333333 by dev3');
    expect(body).not.toContain('dev4');
    expect(body).toContain('t\\|0');
    expect(body).toContain('…and 7 more: [see the run](https://dash.example.com/apps/1/runs/412)');
    expect(body).toContain(`(${testUrl('n')})`);
  });

  it('says all tests passed, or no new failures with the known ones', () => {
    expect(
      commentBody({ appCode: 'a', appName: 'A', verdict: verdict([]), testsPassed: 412, testUrl }),
    ).toContain('All 412 tests passed.');
    const known = verdict([failure({ class: 'known_flaky' }), failure({ class: 'quarantined' })]);
    expect(commentBody({ appCode: 'a', appName: 'A', verdict: known, testsPassed: 3, testUrl })).toContain(
      'No new failures: 1 known flaky · 1 quarantined.',
    );
  });
});

describe('text from uploads in the pull-request comment', () => {
  it('stays literal: no link, mention, issue reference, emphasis, table cell or hidden marker', () => {
    const hostile =
      '](https://evil.example) @octo-org/admins #12 **bold** | cell <!-- test-dashboard:shop -->';
    const body = commentBody({
      appCode: 'shop',
      appName: 'Shop',
      verdict: verdict([failure({ title: hostile, error: hostile })]),
      testsPassed: 0,
      testUrl: (id) => `https://dash.example/apps/1/tests/${id}`,
    });
    expect(body.split(commentMarker('shop'))).toHaveLength(2);
    expect(body).not.toContain('](https://evil');
    expect(body).not.toContain('https://evil');
    expect(body).not.toMatch(/(^|[^\\])@octo/);
    expect(body).not.toContain('@octo');
    expect(body).not.toContain('#12');
    expect(body).not.toContain('**bold');
    expect(body).not.toMatch(/[^\\]\| cell/);
    expect(body).toContain('\\]\\(h');
  });
});
