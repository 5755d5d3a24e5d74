import { type FormEvent, useState } from 'react';
import { api, ApiError } from '../api/client';
import type { Application, TriggerConfiguration } from '../api/types';
import { Checkbox, ErrorMessage, TextField } from '../components/ui';

interface Values {
  name: string;
  code: string;
  pipelineUrl: string;
  watching: boolean;
  triggerEnabled: boolean;
  schedule: string;
  branch: string;
}

const initialValues = (app?: Application): Values => ({
  name: app?.name ?? '',
  code: app?.code ?? '',
  pipelineUrl: app?.pipelineUrl ?? '',
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
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Values>(key: K, value: Values[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const triggerConfig = trigger(values, app?.e2eTriggerConfiguration);
    const body = {
      name: values.name.trim(),
      code: values.code.trim(),
      pipelineUrl: values.pipelineUrl.trim(),
      watching: values.watching,
      ...(triggerConfig || app ? { e2eTriggerConfiguration: triggerConfig } : {}),
    };
    try {
      const saved = await api<Application>(app ? `/api/apps/${app.id}` : '/api/apps', {
        method: app ? 'PUT' : 'POST',
        body,
      });
      onSaved(saved);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const apiError = error instanceof ApiError ? error : undefined;
  const fieldError = (field: string) => apiError?.forField(field);
  const conflict = apiError?.status === 409 ? apiError.message : undefined;
  const named = [
    'name',
    'code',
    'pipelineUrl',
    'watching',
    'e2eTriggerConfiguration.schedule',
    'e2eTriggerConfiguration.branch',
  ];
  const unplaced =
    apiError &&
    (apiError.details.length === 0 || apiError.details.some((d) => !named.includes(d.field))) &&
    !conflict
      ? apiError
      : error instanceof ApiError
        ? undefined
        : error;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="form">
      <ErrorMessage error={unplaced} />
      <TextField
        label="Name"
        value={values.name}
        onChange={(e) => set('name', e.target.value)}
        error={fieldError('name')}
        maxLength={255}
        required
        hint="Must match the project name in the test-results service."
      />
      <TextField
        label="Code"
        value={values.code}
        onChange={(e) => set('code', e.target.value)}
        error={fieldError('code') ?? conflict}
        maxLength={100}
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
        maxLength={500}
        required
        placeholder="https://app.circleci.com/pipelines/github/org/repo"
      />
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
