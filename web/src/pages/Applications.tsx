import { useEffect, useRef, useState } from 'react';
import type {
  ApplicationDetails as Application,
  DashboardClient,
  ManualRun,
} from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { DataTable } from '../components/DataTable';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog';
import { Dialog, EmptyState, ErrorMessage, Spinner } from '../components/ui';
import { usePageTitle } from '../lib/router';
import { useAsync } from '../lib/useAsync';
import { useConfirmedDelete } from '../lib/useConfirmedDelete';
import { useShell } from '../shell';
import { AppForm } from './AppForm';
import { ApplicationRow } from './ApplicationRow';
import { UNFINISHED, useLatestReport, useRunsToday } from './AppRunCells';
import { IfCanChange } from '../lib/access';

const RUN_POLL_MS = 5000;

/** Follows the manual runs started from this page until CircleCI reports them finished. */
function useFollowedRuns(client: DashboardClient, onFinished: () => void) {
  const [runs, setRuns] = useState<Record<number, ManualRun>>({});
  const finished = useRef(onFinished);
  finished.current = onFinished;
  const active = Object.values(runs).filter((run) => UNFINISHED.has(run.status ?? 'created'));
  const activeKey = active.map((run) => `${run.appId}:${run.status ?? ''}`).join(',');

  useEffect(() => {
    if (!activeKey) return;
    const timer = window.setTimeout(() => {
      for (const run of active) {
        client.manualRuns
          .list({ appId: run.appId, limit: 1 })
          .then(({ data: list }) => {
            const latest = list.find((r) => r.id === run.id) ?? list[0];
            if (!latest) return;
            setRuns((all) => ({ ...all, [run.appId]: latest }));
            if (!UNFINISHED.has(latest.status ?? 'created')) finished.current();
          })
          .catch(() => undefined);
      }
    }, RUN_POLL_MS);
    return () => window.clearTimeout(timer);
    // Re-arms after every answer (the key changes or the object does).
  }, [activeKey, runs, client]);

  return { runs, track: (run: ManualRun) => setRuns((all) => ({ ...all, [run.appId]: run })) };
}

export function ApplicationsPage() {
  usePageTitle('Applications');
  const { notify } = useShell();
  const client = useClient();
  const apps = useAsync(() => client.apps.listAll(), [client]);
  const [editing, setEditing] = useState<Application | 'new'>();
  const [starting, setStarting] = useState<number>();
  const [rowError, setRowError] = useState<{ appId: number; error: unknown }>();
  const followed = useFollowedRuns(client, apps.reload);
  const latestReport = useLatestReport();
  const runsToday = useRunsToday();

  const replace = (app: Application) =>
    apps.setData((list) => {
      const current = list ?? [];
      return current.some((a) => a.id === app.id)
        ? current.map((a) => (a.id === app.id ? app : a))
        : [...current, app];
    });

  const toggleWatching = async (app: Application) => {
    setRowError(undefined);
    try {
      replace((await client.apps.update(app.id, { watching: !app.watching })).data);
    } catch (error) {
      setRowError({ appId: app.id, error });
    }
  };

  const runNow = async (app: Application) => {
    setStarting(app.id);
    setRowError(undefined);
    try {
      const { data: run } = await client.manualRuns.trigger(app.id);
      followed.track(run);
      notify(`E2E run started for ${app.name}.`);
      apps.reload();
      runsToday.reload();
    } catch (error) {
      setRowError({ appId: app.id, error });
    } finally {
      setStarting(undefined);
    }
  };

  const deletion = useConfirmedDelete<Application>(
    (app) => client.apps.remove(app.id),
    (app) => {
      apps.setData((list) => list?.filter((a) => a.id !== app.id));
      notify(`${app.name} was deleted.`);
    },
  );

  const list = [...(apps.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          Applications
        </h1>
        <IfCanChange>
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            Add application
          </button>
        </IfCanChange>
      </div>
      {apps.loading && !apps.data && <Spinner />}
      <ErrorMessage error={apps.error} onRetry={apps.reload} />
      {apps.data && list.length === 0 && (
        <EmptyState title="No applications yet.">
          Add the applications whose E2E results you want to follow.
        </EmptyState>
      )}
      {list.length > 0 && (
        <DataTable
          caption="Monitored applications"
          columns={[
            'Application',
            'Watching',
            'Last E2E result',
            'Last manual run',
            'Runs today',
            'Manual runs today',
            <span className="sr-only">Actions</span>,
          ]}
        >
          {list.map((app) => (
            <ApplicationRow
              key={app.id}
              app={app}
              failure={rowError?.appId === app.id ? rowError : undefined}
              starting={starting === app.id}
              report={latestReport.data}
              followed={followed.runs[app.id]}
              runsToday={runsToday.data?.get(app.id)}
              onToggleWatching={() => void toggleWatching(app)}
              onRunNow={() => void runNow(app)}
              onEdit={() => setEditing(app)}
              onDelete={() => deletion.ask(app)}
            />
          ))}
        </DataTable>
      )}
      <Dialog
        open={editing !== undefined}
        title={editing === 'new' ? 'Add application' : `Edit ${editing?.name ?? ''}`}
        onClose={() => setEditing(undefined)}
      >
        <AppForm
          key={editing === 'new' ? 'new' : editing?.id}
          {...(editing && editing !== 'new' ? { app: editing } : {})}
          onCancel={() => setEditing(undefined)}
          onSaved={(app) => {
            replace(app);
            notify(editing === 'new' ? `${app.name} was added.` : `${app.name} was saved.`);
            setEditing(undefined);
          }}
        />
      </Dialog>
      <ConfirmDeleteDialog
        deletion={deletion}
        title="Delete application?"
        message={(app) =>
          `${app.name} and its report details and manual runs will be removed. This cannot be undone.`
        }
        confirmLabel="Delete application"
      />
    </>
  );
}
