import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeCommit, fakeCommitPull, startFakeGitHub, type FakeGitHub } from '../../fakes/fake-github.js';
import { DIALECTS } from '../../support/databases.js';
import { type LiveServer, startLiveServer } from '../../support/live-server.js';
import { createFeedbackApp, eventually, fail, pass, uploadRun } from './verdict-support.js';

const TOKEN = 'ghp_twoworkers0123456789';
const RUNS = 8;

describe.each(DIALECTS)('two processes delivering feedback (%s)', (dialect) => {
  let github: FakeGitHub;
  let first: LiveServer;
  let second: LiveServer;

  beforeAll(async () => {
    github = await startFakeGitHub({ token: TOKEN });
    const env = {
      GITHUB_URL: github.url,
      GITHUB_TOKEN: TOKEN,
      PR_FEEDBACK_DELAY_MS: '100',
      PR_FEEDBACK_POLL_MS: '10',
      PR_FEEDBACK_RETRY_DELAYS_MS: '10',
    };
    first = await startLiveServer({ dialect, env });
    second = await startLiveServer({ dialect, env, deps: { database: first.database } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await github?.close();
  });

  it('posts each run and each verdict once, whichever process claims it', async () => {
    const app = await createFeedbackApp(first, {
      repositoryUrl: `${github.url}/acme/shop`,
      prFeedback: 'both',
    });
    const commits = Array.from({ length: RUNS }, (_, i) => `${i + 1}`.repeat(40).slice(0, 40));
    github.setCommits(
      'acme',
      'shop',
      commits.map((sha) => fakeCommit('acme', 'shop', sha)),
    );
    commits.forEach((sha, i) =>
      github.setCommitPulls('acme', 'shop', sha, [
        fakeCommitPull('acme', 'shop', 100 + i, { state: 'open' }),
      ]),
    );
    first.container.verdict.poller.start();
    second.container.verdict.poller.start();
    // Uploads alternate between the processes; each also kicks its own poller with final=true.
    await Promise.all(
      commits.map((commit, i) =>
        uploadRun(i % 2 ? second : first, app.code, i + 1, [pass('a.spec.ts'), fail('b.spec.ts')], {
          commit,
          final: i % 3 === 0 ? 'true' : 'false',
        }),
      ),
    );
    // Extra polls racing the timers.
    await Promise.all([
      first.container.verdict.poller.poll(),
      second.container.verdict.poller.poll(),
      first.container.verdict.poller.poll(),
      second.container.verdict.poller.poll(),
    ]);
    await eventually(() => github.statuses.length >= RUNS && github.comments.length >= RUNS, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    for (const commit of commits) expect(github.statuses.filter((s) => s.sha === commit)).toHaveLength(1);
    for (let i = 0; i < RUNS; i++) {
      const onPull = github.comments.filter((c) => c.issue === 100 + i);
      expect(onPull).toHaveLength(1);
      expect(onPull[0]!.bodies).toHaveLength(1);
    }
  });
});
