import { createHash } from 'node:crypto';
import { describeFailure } from '../../../integrations/call-outcomes.js';
import {
  GitHubFeedbackError,
  type GitHubFeedbackClient,
} from '../../../integrations/github/github-feedback.js';
import { parseRepositoryUrl, type RepositoryRef } from '../../../integrations/github/repository-url.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { Log } from '../../../shared/log.js';
import { verdictDigest } from '../verdict-classes.js';
import type { RunReading, VerdictService } from '../verdict.service.js';
import { commentBody, commentMarker, statusDescription } from './feedback-text.js';
import type { FeedbackOutcome, FeedbackRepository, FeedbackRunRow } from './feedback.repository.js';

/** Rounds of retries (each with GitHub's own 1, 4, 16 s inside) before a failed delivery is left. */
const MAX_ROUNDS = 5;

export interface FeedbackDeliveryDeps {
  repository: FeedbackRepository;
  verdicts: Pick<VerdictService, 'read'>;
  github: GitHubFeedbackClient;
  publicUrl: string;
  /** How long after a failed round the run is tried again. */
  retryLaterMs: number;
  now: () => Date;
  log: Pick<Log, 'warn' | 'info'>;
}

/** Why a run gets no feedback, or the repository it goes to. */
function targetOf(reading: RunReading, github: GitHubFeedbackClient): RepositoryRef | string {
  const { app, verdict } = reading;
  if (app.pr_feedback === 'off') return 'pull-request feedback is off for this application';
  if (!verdict.commitSha) return 'the run was uploaded without a commit SHA';
  if (!app.repository_url) return 'the application has no repositoryUrl';
  const ref = parseRepositoryUrl(app.repository_url);
  let host: string | undefined;
  try {
    host = new URL(app.repository_url).host.toLowerCase();
  } catch {
    host = undefined;
  }
  if (!ref || host !== github.webHost) return `the repositoryUrl is not a repository on ${github.webHost}`;
  if (!github.hasToken) return 'GITHUB_TOKEN is not set';
  return ref;
}

/** The key of one delivery: the verdict posted over the one before it, so A → B → A posts A again. */
const deliveryKey = (previous: string | null, digest: string) =>
  createHash('sha256')
    .update(`${previous ?? ''}:${digest}`)
    .digest('hex');

export function createFeedbackDelivery(deps: FeedbackDeliveryDeps) {
  const { repository, github } = deps;
  const iso = () => deps.now().toISOString();

  async function upsertComment(
    reading: RunReading,
    ref: RepositoryRef,
    pull: number,
    body: string,
  ): Promise<'created' | 'edited'> {
    const repositoryKey = `${ref.owner}/${ref.repo}`.toLowerCase();
    const appId = reading.app.id;
    const known = await repository.findComment(appId, repositoryKey, pull);
    if (known !== undefined && (await github.updateComment(ref.owner, ref.repo, known, body)))
      return 'edited';
    // The id was lost (or the comment deleted): the marker finds ours among the pull request's comments.
    const found = await github.findComment(ref.owner, ref.repo, pull, commentMarker(reading.app.code));
    if (found !== null && (await github.updateComment(ref.owner, ref.repo, found, body))) {
      await repository.saveComment(appId, repositoryKey, pull, found, iso());
      return 'edited';
    }
    const created = await github.createComment(ref.owner, ref.repo, pull, body);
    await repository.saveComment(appId, repositoryKey, pull, created, iso());
    return 'created';
  }

  async function post(reading: RunReading, ref: RepositoryRef): Promise<string> {
    const { app, verdict } = reading;
    const passed = reading.standing.reduce((sum, row) => sum + row.passed, 0);
    const parts: string[] = [];
    if (app.pr_feedback === 'status' || app.pr_feedback === 'both') {
      const description = statusDescription(verdict, passed);
      await github.createStatus(ref.owner, ref.repo, verdict.commitSha!, {
        state: verdict.status === 'pass' ? 'success' : 'failure',
        description,
        context: `test-dashboard/${app.code}`,
        targetUrl: verdict.url,
      });
      parts.push(`status ${verdict.status === 'pass' ? 'success' : 'failure'}: ${description}`);
    }
    if (app.pr_feedback === 'comment' || app.pr_feedback === 'both') {
      const pulls = await github.openPullRequestsOf(ref.owner, ref.repo, verdict.commitSha!);
      const body = commentBody({
        appCode: app.code,
        appName: app.name,
        verdict,
        testsPassed: passed,
        testUrl: (testId) => `${deps.publicUrl}/apps/${app.id}/tests/${encodeURIComponent(testId)}`,
      });
      for (const pull of pulls)
        parts.push(`comment ${await upsertComment(reading, ref, pull, body)} on #${pull}`);
      if (pulls.length === 0) parts.push('no open pull request holds the commit');
    }
    return parts.join('; ');
  }

  /** Delivers the feedback of a run this process claimed, and ends its lease. */
  async function deliver(row: FeedbackRunRow): Promise<FeedbackOutcome | undefined> {
    const { app_id: appId, run_number: runNumber } = row;
    const skip = async (message: string) => {
      const outcome: FeedbackOutcome = { state: 'skipped', message };
      await repository.release(appId, runNumber, { outcome, at: iso() });
      return outcome;
    };
    let reading: RunReading;
    try {
      reading = await deps.verdicts.read(appId, runNumber);
    } catch (error) {
      if (error instanceof NotFoundError) return skip(error.message);
      throw error;
    }
    const target = targetOf(reading, github);
    if (typeof target === 'string') return skip(target);
    const digest = verdictDigest(reading.verdict);
    const key = deliveryKey(row.delivered_digest, digest);
    if (digest === row.delivered_digest || !(await repository.claimDelivery(appId, runNumber, key, iso()))) {
      // Already posted (by this or another process): nothing changes on GitHub.
      await repository.release(appId, runNumber, {
        outcome: parseOutcome(row.outcome) ?? { state: 'posted', message: 'posted by another process' },
        at: row.outcome_at ?? iso(),
      });
      return undefined;
    }
    try {
      const outcome: FeedbackOutcome = { state: 'posted', message: await post(reading, target) };
      await repository.finishDelivery(appId, runNumber, key, outcome, iso());
      await repository.release(appId, runNumber, { outcome, at: iso(), digest });
      return outcome;
    } catch (error) {
      await repository.dropDelivery(appId, runNumber, key);
      const retryable = !(error instanceof GitHubFeedbackError) || error.retryable;
      const again = retryable && row.attempts + 1 < MAX_ROUNDS;
      const message = describeFailure(error) + (again ? '; tried again later' : '');
      deps.log.warn({ appId, runNumber }, `pull-request feedback failed: ${message}`);
      const outcome: FeedbackOutcome = { state: 'failed', message };
      await repository.release(appId, runNumber, {
        outcome,
        at: iso(),
        ...(again ? { retryAt: new Date(deps.now().getTime() + deps.retryLaterMs).toISOString() } : {}),
      });
      return outcome;
    }
  }

  return { deliver };
}

function parseOutcome(text: string | null): FeedbackOutcome | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as FeedbackOutcome;
  } catch {
    return null;
  }
}

export type FeedbackDelivery = ReturnType<typeof createFeedbackDelivery>;
