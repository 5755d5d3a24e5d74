import { useState } from 'react';
import type { PullRequest } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { errorMessage, errorStatus, fieldMessage } from '../api/errors';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog';
import {
  Dialog,
  EmptyState,
  ErrorMessage,
  SelectField,
  Spinner,
  StatusBadge,
  TextField,
} from '../components/ui';
import {
  attentionStates,
  matchesFilter,
  openedAt,
  PR_FILTERS,
  type PullRequestFilter,
} from '../lib/pull-requests';
import { usePageTitle, useQueryParam } from '../lib/router';
import { pullRequestLabel } from '../lib/text';
import { ageInDays, formatDate, formatDateTime, fromNow } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { useConfirmedDelete } from '../lib/useConfirmedDelete';
import { useSubmit } from '../lib/useSubmit';
import { useShell } from '../shell';
import { IfCanChange, useCanChange } from '../lib/access';

function AddForm({ onAdded }: { onAdded: (pr: PullRequest) => void }) {
  const [url, setUrl] = useState('');
  const client = useClient();
  const canChange = useCanChange();
  const { busy, error, onSubmit } = useSubmit(async () => {
    onAdded((await client.pullRequests.create({ url: url.trim() })).data);
    setUrl('');
  });
  const status = errorStatus(error);
  const inline =
    status === 400 || status === 409
      ? (fieldMessage(error, 'url', 'Pull request URL') ?? errorMessage(error))
      : undefined;
  if (!canChange) return null;
  return (
    <form className="panel inline-form" onSubmit={onSubmit} noValidate>
      <TextField
        label="Pull request URL"
        type="url"
        inputMode="url"
        placeholder="https://github.com/org/repo/pull/123"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={inline}
        required
      />
      <button type="submit" className="button button-primary" disabled={busy || !url.trim()}>
        {busy ? 'Adding…' : 'Track pull request'}
      </button>
      {!inline && <ErrorMessage error={error} />}
    </form>
  );
}

function Details({ id }: { id: number }) {
  const client = useClient();
  const details = useAsync(async () => (await client.pullRequests.get(id)).data, [client, id]);
  if (details.loading && !details.data) return <Spinner label="Fetching details from GitHub…" />;
  if (details.error) return <ErrorMessage error={details.error} onRetry={details.reload} />;
  const scm = details.data?.scmDetails;
  if (!scm) return null;
  return (
    <div className="pr-details">
      <p className="author">
        {scm.user.avatar_url && (
          <img
            src={scm.user.avatar_url}
            alt=""
            width={32}
            height={32}
            onError={(e) => e.currentTarget.remove()}
          />
        )}
        <span>
          Opened by <strong>{scm.user.login}</strong> on {formatDateTime(scm.created_at)}
          {scm.merged_at
            ? ` (merged ${fromNow(scm.merged_at)})`
            : scm.created_at
              ? ` (${ageInDays(scm.created_at)} days open)`
              : ''}
          {scm.draft && (
            <>
              {' '}
              · <StatusBadge status="pending" label="draft" />
            </>
          )}
        </span>
      </p>
      <dl className="facts">
        <div>
          <dt>Mergeable state</dt>
          <dd>
            <StatusBadge
              status={
                scm.mergeable_state === 'clean'
                  ? 'passed'
                  : scm.mergeable_state === 'dirty'
                    ? 'failed'
                    : 'pending'
              }
              label={scm.mergeable_state ?? 'unknown'}
            />
          </dd>
        </div>
        <div>
          <dt>Changes</dt>
          <dd>
            <span className="plus">+{scm.additions}</span> <span className="minus">−{scm.deletions}</span>{' '}
            <span className="muted">in {scm.changed_files} files</span>
          </dd>
        </div>
        <div>
          <dt>Comments</dt>
          <dd>
            {scm.comments} <span className="muted">+ {scm.review_comments} review</span>
          </dd>
        </div>
        <div>
          <dt>Commits</dt>
          <dd>{scm.commits}</dd>
        </div>
        <div>
          <dt>Branches</dt>
          <dd>
            <code>{scm.head?.ref ?? '?'}</code> → <code>{scm.base?.ref ?? '?'}</code>
          </dd>
        </div>
      </dl>
    </div>
  );
}

export function PullRequestsPage() {
  usePageTitle('Pull requests');
  const { notify } = useShell();
  const client = useClient();
  const prs = useAsync(async () => (await client.pullRequests.list({ limit: 100 })).data, [client]);
  const [open, setOpen] = useState<PullRequest>();

  const removal = useConfirmedDelete<PullRequest>(
    (pr) => client.pullRequests.remove(pr.id),
    (pr) => {
      prs.setData((list) => list?.filter((p) => p.id !== pr.id));
      notify('Pull request removed from tracking.');
    },
  );

  const [filterParam, setFilter] = useQueryParam('show', 'all');
  const filter: PullRequestFilter = filterParam in PR_FILTERS ? (filterParam as PullRequestFilter) : 'all';
  const all = [...(prs.data ?? [])].sort((a, b) => openedAt(a).at.localeCompare(openedAt(b).at));
  const list = all.filter((pr) => matchesFilter(pr, filter));

  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          Pull requests
        </h1>
      </div>
      <AddForm
        onAdded={(pr) => {
          prs.setData((current) => [...(current ?? []), pr]);
          notify(`Now tracking ${pullRequestLabel(pr.url)}.`);
        }}
      />
      <div className="toolbar list-filters">
        <SelectField label="Show" value={filter} onChange={(e) => setFilter(e.target.value)}>
          {Object.entries(PR_FILTERS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
      </div>
      {prs.loading && !prs.data && <Spinner />}
      <ErrorMessage error={prs.error} onRetry={prs.reload} />
      {prs.data && all.length === 0 && (
        <EmptyState title="No pull requests tracked.">Paste a GitHub pull request URL above.</EmptyState>
      )}
      {all.length > 0 && list.length === 0 && <EmptyState title="No pull request matches this filter." />}
      {list.length > 0 && (
        <ul className="list" aria-label="Tracked pull requests">
          {list.map((pr) => {
            const opened = openedAt(pr);
            const age = ageInDays(opened.at);
            const states = attentionStates(pr);
            return (
              <li key={pr.id} className="list-item" data-pr={pr.id}>
                <div className="list-main">
                  <a href={pr.url} target="_blank" rel="noopener noreferrer" className="strong">
                    {pr.title || pullRequestLabel(pr.url)}
                  </a>
                  <span className="muted small block">
                    {pullRequestLabel(pr.url)} · {opened.estimated ? 'added' : 'opened'}{' '}
                    {formatDate(opened.at)}
                  </span>
                  <span className="attention" aria-label="Attention">
                    {states.length === 0 && <span className="badge badge-info">open</span>}
                    {states.map((state) => (
                      <span key={state.key} className={`badge badge-${state.tone}`} data-state={state.key}>
                        {state.label}
                      </span>
                    ))}
                  </span>
                </div>
                {pr.status === 'open' && (
                  <span
                    className={`age ${age > 7 ? 'age-old' : age > 3 ? 'age-warn' : ''}`}
                    title={`${opened.estimated ? 'Tracked' : 'Open'} for ${age} day${age === 1 ? '' : 's'}`}
                  >
                    {age === 0 ? 'new' : `${age} d`}
                    <span className="sr-only"> old</span>
                  </span>
                )}
                <div className="actions">
                  <button type="button" className="button button-small" onClick={() => setOpen(pr)}>
                    Details<span className="sr-only"> of {pr.title}</span>
                  </button>
                  <IfCanChange>
                    <button
                      type="button"
                      className="button button-small button-danger-ghost"
                      onClick={() => removal.ask(pr)}
                    >
                      Remove<span className="sr-only"> {pr.title}</span>
                    </button>
                  </IfCanChange>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Dialog
        open={open !== undefined}
        title={open ? open.title || pullRequestLabel(open.url) : ''}
        onClose={() => setOpen(undefined)}
      >
        {open && <Details id={open.id} />}
      </Dialog>
      <ConfirmDeleteDialog
        deletion={removal}
        title="Stop tracking this pull request?"
        message={(pr) => `${pr.title} (${pullRequestLabel(pr.url)}) will no longer be followed.`}
        confirmLabel="Remove"
      />
    </>
  );
}
