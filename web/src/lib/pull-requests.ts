import type { PullRequest } from '../../../src/client/index.js';
const DAY_MS = 86_400_000;

/** A state of a pull request that asks for someone's attention, as shown on the list. */
export interface Attention {
  key: 'merged' | 'closed' | 'draft' | 'conflicts' | 'ready' | 'open-7' | 'open-3';
  label: string;
  tone: 'good' | 'bad' | 'warn' | 'info' | 'merged' | 'neutral';
}

/**
 * When the pull request was opened on GitHub; the time it was added here only until GitHub has been
 * read (`openedAt` is null then), and `estimated` says so.
 */
export function openedAt(pr: PullRequest): { at: string; estimated: boolean } {
  return pr.openedAt ? { at: pr.openedAt, estimated: false } : { at: pr.createdAt, estimated: true };
}

/**
 * The attention states of a pull request, most important first. A draft is never ready to merge;
 * closed and merged ones have nothing else to say; age counts from the opening on GitHub.
 */
export function attentionStates(pr: PullRequest, now = Date.now()): Attention[] {
  if (pr.status === 'merged') return [{ key: 'merged', label: 'merged', tone: 'merged' }];
  if (pr.status === 'closed') return [{ key: 'closed', label: 'closed', tone: 'neutral' }];
  const states: Attention[] = [];
  if (pr.mergeableState === 'dirty') states.push({ key: 'conflicts', label: 'conflicts', tone: 'bad' });
  if (pr.draft) states.push({ key: 'draft', label: 'draft', tone: 'neutral' });
  else if (pr.mergeableState === 'clean')
    states.push({ key: 'ready', label: 'ready to merge', tone: 'good' });
  const openMs = now - Date.parse(openedAt(pr).at);
  if (openMs > 7 * DAY_MS) states.push({ key: 'open-7', label: 'open > 7 days', tone: 'bad' });
  else if (openMs > 3 * DAY_MS) states.push({ key: 'open-3', label: 'open > 3 days', tone: 'warn' });
  return states;
}

/** The list filters, kept in the address as `?show=`. */
export const PR_FILTERS = {
  all: 'All',
  attention: 'Needing attention',
  open: 'Open',
  done: 'Merged or closed',
} as const;
export type PullRequestFilter = keyof typeof PR_FILTERS;

export function matchesFilter(pr: PullRequest, filter: string, now = Date.now()): boolean {
  switch (filter) {
    case 'attention':
      return attentionStates(pr, now).some((s) => s.key !== 'merged' && s.key !== 'closed');
    case 'open':
      return pr.status === 'open';
    case 'done':
      return pr.status !== 'open';
    default:
      return true;
  }
}
