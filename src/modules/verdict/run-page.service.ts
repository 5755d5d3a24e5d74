import { parseRepositoryUrl } from '../../integrations/github/repository-url.js';
import { toPrFeedbackMode } from '../apps/apps.service.js';
import type { FeedbackRepository } from './feedback/feedback.repository.js';
import type { FeedbackState, RunDetails } from './verdict.schema.js';
import type { RunReading, VerdictService } from './verdict.service.js';

function commitUrl(repositoryUrl: string | null, sha: string | null): string | null {
  if (!repositoryUrl || !sha || !parseRepositoryUrl(repositoryUrl)) return null;
  return `${repositoryUrl.replace(/(\.git)?\/*$/, '')}/commit/${encodeURIComponent(sha)}`;
}

/** `GET /api/apps/:id/runs/:runNumber`: the run page's verdict, totals, links and feedback. */
export function createRunPageService(deps: {
  verdicts: Pick<VerdictService, 'read'>;
  feedback: Pick<FeedbackRepository, 'runFeedback'>;
}) {
  async function feedbackOf(reading: RunReading): Promise<FeedbackState> {
    const mode = toPrFeedbackMode(reading.app.pr_feedback);
    const row = await deps.feedback.runFeedback(reading.app.id, reading.verdict.runNumber);
    // A failed delivery stays failed on the page while its retry is due; a changed verdict is pending.
    const waiting = Boolean(row?.due_at || row?.claimed_until) && row?.outcome?.state !== 'failed';
    const state: FeedbackState['state'] = waiting
      ? 'pending'
      : (row?.outcome?.state ?? (mode === 'off' ? 'off' : 'pending'));
    const message =
      row?.outcome?.message ??
      (mode === 'off' ? 'pull-request feedback is off for this application' : 'not posted yet');
    return { mode, state, message, at: row?.outcome_at ?? null, dueAt: row?.due_at ?? null };
  }

  return {
    async details(appId: number, runNumber: number): Promise<RunDetails> {
      const reading = await deps.verdicts.read(appId, runNumber);
      const totals = { tests: 0, passed: 0, failed: 0, flaky: 0, skipped: 0 };
      for (const row of reading.standing) {
        totals.tests += row.tests;
        totals.passed += row.passed;
        totals.failed += row.failed;
        totals.flaky += row.flaky;
        totals.skipped += row.skipped;
      }
      const withUrl = [...reading.uploads].reverse().find((upload) => upload.run_url);
      const createdAt = reading.uploads.reduce(
        (min, upload) => (upload.created_at < min ? upload.created_at : min),
        reading.uploads[0]!.created_at,
      );
      return {
        verdict: reading.verdict,
        app: { id: reading.app.id, name: reading.app.name, code: reading.app.code },
        totals,
        runUrl: withUrl?.run_url ?? null,
        commitUrl: commitUrl(reading.app.repository_url, reading.verdict.commitSha),
        createdAt,
        feedback: await feedbackOf(reading),
      };
    },
  };
}

export type RunPageService = ReturnType<typeof createRunPageService>;
