import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeCommit, fakeCommitPull, startFakeGitHub, type FakeGitHub } from '../../fakes/fake-github.js';
import { DIALECTS } from '../../support/databases.js';
import { type LiveServer, startLiveServer } from '../../support/live-server.js';
import { apiJson, createFeedbackApp, eventually, fail, pass, uploadRun } from './verdict-support.js';

const TOKEN = 'ghp_feedbacktoken0123456789';

describe.each(DIALECTS)('pull-request feedback (%s)', (dialect) => {
  let github: FakeGitHub;
  let server: LiveServer;
  let app: { id: number; code: string };
  let sha = 0;
  const history: Record<string, unknown>[] = [];

  beforeAll(async () => {
    github = await startFakeGitHub({ token: TOKEN });
    server = await startLiveServer({
      dialect,
      env: {
        GITHUB_URL: github.url,
        GITHUB_TOKEN: TOKEN,
        DASHBOARD_PUBLIC_URL: 'https://dash.example.com',
        PR_FEEDBACK_DELAY_MS: '150',
        PR_FEEDBACK_RETRY_DELAYS_MS: '10,20,40',
        PR_FEEDBACK_POLL_MS: '30',
      },
    });
    server.container.verdict.poller.start();
  });
  afterAll(async () => {
    await server?.close();
    await github?.close();
  });
  beforeEach(async () => {
    github.failWith = undefined;
    app = await createFeedbackApp(server, { repositoryUrl: `${github.url}/acme/shop`, prFeedback: 'both' });
  });

  /** A fresh commit contained in open pull request `pull`. */
  const commitInPull = (pull: number) => {
    const commit = `c${++sha}`.padEnd(40, '0');
    history.push(fakeCommit('acme', 'shop', commit));
    github.setCommits('acme', 'shop', history);
    github.setCommitPulls('acme', 'shop', commit, [fakeCommitPull('acme', 'shop', pull, { state: 'open' })]);
    return commit;
  };
  const statusesOf = (commit: string) => github.statuses.filter((s) => s.sha === commit);
  const commentsOn = (pull: number) => github.comments.filter((c) => c.issue === pull);

  it('posts a status and one comment when a final upload settles the run, then edits the comment as shards change it', async () => {
    const commit = commitInPull(41);
    const started = Date.now();
    await uploadRun(server, app.code, 1, [pass('a.spec.ts'), fail('b.spec.ts')], { commit, final: 'true' });
    const answeredIn = Date.now() - started;
    await eventually(() => statusesOf(commit).length === 1 && commentsOn(41).length === 1);
    expect(answeredIn).toBeLessThan(2000);
    expect(statusesOf(commit)[0]).toMatchObject({
      state: 'failure',
      context: `test-dashboard/${app.code}`,
      description: '1 new failure',
      target_url: `https://dash.example.com/apps/${app.id}/runs/1`,
    });
    const [comment] = commentsOn(41);
    expect(comment!.body).toContain(`<!-- test-dashboard:${app.code} -->`);
    expect(comment!.body).toContain('b.spec.ts › works');

    // A second shard arrives after the first feedback: same comment, edited in place.
    await uploadRun(server, app.code, 1, [fail('c.spec.ts')], { commit, final: 'true' });
    await eventually(() => statusesOf(commit).length === 2);
    await eventually(() => commentsOn(41)[0]!.bodies.length === 2);
    expect(commentsOn(41)).toHaveLength(1);
    expect(statusesOf(commit)[1]!.description).toBe('2 new failures');
    expect(commentsOn(41)[0]!.body).toContain('c.spec.ts');

    // The same file again changes nothing: nothing is posted for an unchanged verdict.
    await uploadRun(server, app.code, 1, [fail('c.spec.ts')], { commit, final: 'true' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(statusesOf(commit).map((s) => s.description)).toEqual(['1 new failure', '2 new failures']);
    expect(commentsOn(41)[0]!.bodies).toHaveLength(2);

    const page = await apiJson<{ data: { feedback: Record<string, unknown> } }>(
      server,
      'GET',
      `/api/apps/${app.id}/runs/1`,
    );
    expect(page.body.data.feedback).toMatchObject({ mode: 'both', state: 'posted' });
    expect(String(page.body.data.feedback.message)).toContain('comment edited on #41');
  });

  it('settles a run PR_FEEDBACK_DELAY_MS after its last upload without final', async () => {
    const commit = commitInPull(42);
    await uploadRun(server, app.code, 2, [pass('a.spec.ts')], { commit });
    expect(statusesOf(commit)).toHaveLength(0);
    await eventually(() => statusesOf(commit).length === 1 && commentsOn(42).length === 1);
    expect(statusesOf(commit)[0]).toMatchObject({ state: 'success', description: 'all 1 tests passed' });
    expect(commentsOn(42)[0]!.body).toContain('All 1 tests passed.');
  });

  it('finds its comment again by the marker when the id was lost', async () => {
    const commit = commitInPull(43);
    await uploadRun(server, app.code, 3, [fail('a.spec.ts')], { commit, final: 'true' });
    await eventually(() => commentsOn(43).length === 1);
    await server.database.db.deleteFrom('pr_feedback_comments').execute();
    await uploadRun(server, app.code, 3, [fail('b.spec.ts')], { commit, final: 'true' });
    await eventually(() => commentsOn(43)[0]!.bodies.length === 2);
    expect(commentsOn(43)).toHaveLength(1);
  });

  it('retries GitHub 5xx, records the failure on the run and /api/status, and posts once GitHub recovers', async () => {
    const commit = commitInPull(44);
    github.failWith = 502;
    const before = github.requests.length;
    await uploadRun(server, app.code, 4, [fail('a.spec.ts')], { commit, final: 'true' });
    await eventually(async () => {
      const page = await apiJson<{ data: { feedback: { state: string } } }>(
        server,
        'GET',
        `/api/apps/${app.id}/runs/4`,
      );
      return page.body.data.feedback.state === 'failed';
    });
    // The status call: one attempt and three retries (1, 4, 16 s, shortened here) before the round fails.
    const statusCalls = github.requests.slice(before).filter((r) => r.path.includes('/statuses/'));
    expect(statusCalls.length).toBeGreaterThanOrEqual(4);
    expect(statusCalls.slice(0, 4).map((r) => r.status)).toEqual([502, 502, 502, 502]);
    const status = await apiJson<{ data: { integrations: { github: { lastError: string | null } } } }>(
      server,
      'GET',
      '/api/status',
    );
    expect(status.body.data.integrations.github.lastError).toContain('502');
    github.failWith = undefined;
    await eventually(() => statusesOf(commit).length === 1 && commentsOn(44).length === 1, 8000);
  });

  it('records a refused token without retrying', async () => {
    // Only the second process, whose GitHub refuses the token, delivers here.
    await server.container.verdict.poller.stop();
    const other = await startFakeGitHub({ token: 'another-token-entirely' });
    const refusing = await startLiveServer({
      dialect,
      deps: { database: server.database },
      env: { GITHUB_URL: other.url, GITHUB_TOKEN: TOKEN, PR_FEEDBACK_RETRY_DELAYS_MS: '10,20,40' },
    });
    try {
      const commit = commitInPull(45);
      await apiJson(server, 'PUT', `/api/apps/${app.id}`, { repositoryUrl: `${other.url}/acme/shop` });
      await uploadRun(refusing, app.code, 5, [fail('a.spec.ts')], { commit, final: 'true' });
      await eventually(async () => {
        const page = await apiJson<{ data: { feedback: { state: string; message: string } } }>(
          server,
          'GET',
          `/api/apps/${app.id}/runs/5`,
        );
        return page.body.data.feedback.state === 'failed' && page.body.data.feedback.message.includes('401');
      });
      expect(other.requests.filter((r) => r.path.includes('/statuses/'))).toHaveLength(1);
    } finally {
      await refusing.close();
      await other.close();
      server.container.verdict.poller.start();
    }
  });
});
