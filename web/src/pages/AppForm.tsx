import { useState } from 'react';
import type { ApplicationDetails as Application, TriggerConfiguration } from '../../../src/client/index.js';
import { APP_LIMITS } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { errorStatus, errorMessage, fieldMessage, fieldProblems } from '../api/errors';
import { Checkbox, ErrorMessage, SelectField, TextField } from '../components/ui';
import { useSubmit } from '../lib/useSubmit';

type PrFeedback = Application['prFeedback'];

const PR_FEEDBACK_LABELS: Record<PrFeedback, string> = {
  off: 'Off',
  status: 'Commit status',
  comment: 'One comment per pull request',
  both: 'Status and comment',
};

interface Values {
  name: string;
  code: string;
  pipelineUrl: string;
  repositoryUrl: string;
  defaultBranch: string;
  prFeedback: PrFeedback;
  watching: boolean;
  triggerEnabled: boolean;
  schedule: string;
  branch: string;
}

const initialValues = (app?: Application): Values => ({
  name: app?.name ?? '',
  code: app?.code ?? '',
  pipelineUrl: app?.pipelineUrl ?? '',
  repositoryUrl: app?.repositoryUrl ?? '',
  defaultBranch: app?.defaultBranch ?? 'main',
  prFeedback: app?.prFeedback ?? 'off',
  watching: app?.watching ?? true,
  triggerEnabled: app?.e2eTriggerConfiguration?.enabled ?? false,
  schedule: app?.e2eTriggerConfiguration?.schedule ?? '',
  branch: app?.e2eTriggerConfiguration?.branch ?? '',
});

function trigger(values: Values, previous?: TriggerConfiguration | null): TriggerConfiguration | null {
  const schedule = values.schedule.trim();
  const branch = values.branch.trim();
  if (!values.triggerEnabled && !schedule && !branch && !previous) return null;
  return {
    enabled: values.triggerEnabled,
    ...(schedule ? { schedule } : {}),
    ...(branch ? { branch } : {}),
    ...(previous?.parameters ? { parameters: previous.parameters } : {}),
  };
}

/** The labels of the form, by the API's field names: error messages name fields as the user sees them. */
const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  code: 'Code',
  pipelineUrl: 'Pipeline URL',
  repositoryUrl: 'Repository URL',
  defaultBranch: 'Default branch',
  prFeedback: 'Pull-request feedback',
  watching: 'Watching',
  'e2eTriggerConfiguration.schedule': 'Schedule',
  'e2eTriggerConfiguration.branch': 'Branch',
};

/** Create or edit an application; the API's validation messages appear next to their fields. */
export function AppForm({
  app,
  onSaved,
  onCancel,
}: {
  app?: Application;
  onSaved: (app: Application) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(() => initialValues(app));
  const client = useClient();
  const set = <K extends keyof Values>(key: K, value: Values[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const { busy, error, onSubmit } = useSubmit(async () => {
    const triggerConfig = trigger(values, app?.e2eTriggerConfiguration);
    const repositoryUrl = values.repositoryUrl.trim();
    const body = {
      name: values.name.trim(),
      code: values.code.trim(),
      pipelineUrl: values.pipelineUrl.trim(),
      // An emptied field clears the repository (the API takes null, not an empty string).
      ...(repositoryUrl || app?.repositoryUrl ? { repositoryUrl: repositoryUrl || null } : {}),
      defaultBranch: values.defaultBranch.trim(),
      prFeedback: values.prFeedback,
      watching: values.watching,
      ...(triggerConfig || app ? { e2eTriggerConfiguration: triggerConfig } : {}),
    };
    const saved = app ? await client.apps.update(app.id, body) : await client.apps.create(body);
    onSaved(saved.data);
  });

  const fieldError = (field: string) => fieldMessage(error, field, FIELD_LABELS[field] ?? field);
  const conflict = errorStatus(error) === 409 ? errorMessage(error) : undefined;
  const problems = fieldProblems(error);
  const unplaced =
    error && !conflict && (problems.length === 0 || problems.some((p) => !(p.field in FIELD_LABELS)))
      ? error
      : undefined;

  return (
    <form onSubmit={onSubmit} noValidate className="form">
      <ErrorMessage error={unplaced} />
      <TextField
        label="Name"
        value={values.name}
        onChange={(e) => set('name', e.target.value)}
        error={fieldError('name')}
        maxLength={APP_LIMITS.name}
        required
        hint="Must match the project name in the test-results service."
      />
      <TextField
        label="Code"
        value={values.code}
        onChange={(e) => set('code', e.target.value)}
        error={fieldError('code') ?? conflict}
        maxLength={APP_LIMITS.code}
        required
        hint="Short unique identifier."
      />
      <TextField
        label="Pipeline URL"
        type="url"
        inputMode="url"
        value={values.pipelineUrl}
        onChange={(e) => set('pipelineUrl', e.target.value)}
        error={fieldError('pipelineUrl')}
        maxLength={APP_LIMITS.pipelineUrl}
        required
        placeholder="https://app.circleci.com/pipelines/github/org/repo"
      />
      <TextField
        label="Repository URL (optional)"
        type="url"
        inputMode="url"
        value={values.repositoryUrl}
        onChange={(e) => set('repositoryUrl', e.target.value)}
        error={fieldError('repositoryUrl')}
        maxLength={APP_LIMITS.repositoryUrl}
        placeholder="https://github.com/org/repo"
        hint="The GitHub repository of the code under test: suspects of a failing spec come from its commits."
      />
      <TextField
        label="Default branch"
        value={values.defaultBranch}
        onChange={(e) => set('defaultBranch', e.target.value)}
        error={fieldError('defaultBranch')}
        maxLength={255}
        required
        hint="A run's failures are compared with this branch: already failing there is not new."
      />
      <SelectField
        label="Pull-request feedback"
        value={values.prFeedback}
        onChange={(e) => set('prFeedback', e.target.value as PrFeedback)}
        error={fieldError('prFeedback')}
        hint="Posts each settled run's verdict on its GitHub pull requests (needs the repository URL and GITHUB_TOKEN)."
      >
        {Object.entries(PR_FEEDBACK_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </SelectField>
      <Checkbox
        label="Watching (included in reports)"
        checked={values.watching}
        onChange={(e) => set('watching', e.target.checked)}
      />
      <fieldset className="fieldset">
        <legend>Manual and scheduled E2E runs</legend>
        <Checkbox
          label="Trigger enabled"
          checked={values.triggerEnabled}
          onChange={(e) => set('triggerEnabled', e.target.checked)}
        />
        <div className="grid-2">
          <TextField
            label="Schedule (cron, optional)"
            value={values.schedule}
            onChange={(e) => set('schedule', e.target.value)}
            error={fieldError('e2eTriggerConfiguration.schedule')}
            placeholder="0 6 * * 1-5"
          />
          <TextField
            label="Branch (optional)"
            value={values.branch}
            onChange={(e) => set('branch', e.target.value)}
            error={fieldError('e2eTriggerConfiguration.branch')}
            placeholder="main"
          />
        </div>
      </fieldset>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : app ? 'Save changes' : 'Add application'}
        </button>
      </div>
    </form>
  );
}
