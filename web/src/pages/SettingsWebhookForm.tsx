import { type FormEvent, useState } from 'react';
import type { NotificationType, Webhook, WebhookKind } from '../../../src/client/index.js';
import { WEBHOOK_LIMITS } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { fieldMessage, fieldProblems, localError } from '../api/errors';
import { Checkbox, ErrorMessage, SelectField, TextField } from '../components/ui';

export const KIND_LABELS: Record<WebhookKind, string> = {
  slack: 'Slack',
  teams: 'Microsoft Teams (Workflows)',
  generic: 'Generic JSON',
};

export const TYPE_LABELS: Record<NotificationType, string> = {
  e2e_failure: 'E2E failures',
  e2e_success: 'E2E recoveries',
  pr_update: 'Pull requests',
  app_update: 'Application changes',
  system: 'System alerts',
  info: 'Reminders',
};
const ALL_TYPES = Object.keys(TYPE_LABELS) as NotificationType[];

const LABELS: Record<string, string> = {
  url: 'Webhook URL',
  kind: 'Kind',
  types: 'Notifications',
  secret: 'Signing secret',
  name: 'Name',
};

const URL_PLACEHOLDERS: Record<WebhookKind, string> = {
  slack: 'https://hooks.slack.com/services/…',
  teams: 'https://…logic.azure.com/workflows/…',
  generic: 'https://example.com/hooks/dashboard',
};

/**
 * Adds a webhook or edits one. The API never returns a webhook's full URL nor its secret, so when
 * editing both fields start empty and are only sent when filled in (or, for the secret, removed).
 */
export function WebhookForm({
  webhook,
  onSaved,
  onCancel,
}: {
  webhook?: Webhook;
  onSaved: (webhook: Webhook) => void;
  onCancel: () => void;
}) {
  const client = useClient();
  const [name, setName] = useState(webhook?.name ?? '');
  const [kind, setKind] = useState<WebhookKind>(webhook?.kind ?? 'slack');
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<NotificationType[]>(webhook?.types ?? ALL_TYPES);
  const [secret, setSecret] = useState('');
  const [removeSecret, setRemoveSecret] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const toggleType = (type: NotificationType, on: boolean) =>
    setTypes((list) => ALL_TYPES.filter((t) => (t === type ? on : list.includes(t))));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (types.length === 0) {
      setError(localError('Choose at least one kind of notification.'));
      return;
    }
    setBusy(true);
    setError(undefined);
    const secretChange =
      kind !== 'generic' ? {} : secret ? { secret } : removeSecret && webhook ? { secret: null } : {};
    try {
      const saved = webhook
        ? await client.webhooks.update(webhook.id, {
            name: name.trim() || null,
            kind,
            types,
            ...(url.trim() ? { url: url.trim() } : {}),
            ...secretChange,
          })
        : await client.webhooks.create({
            url: url.trim(),
            kind,
            types,
            ...(name.trim() ? { name: name.trim() } : {}),
            ...(kind === 'generic' && secret ? { secret } : {}),
          });
      onSaved(saved.data);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (field: string) => fieldMessage(error, field, LABELS[field] ?? field);
  const placed = fieldProblems(error).some((p) => p.field.split('.')[0]! in LABELS);

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="form">
      <ErrorMessage error={placed ? undefined : error} />
      <div className="grid-2">
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldError('name')}
          maxLength={WEBHOOK_LIMITS.name}
          placeholder="#qa-alerts"
        />
        <SelectField
          label="Kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as WebhookKind)}
          error={fieldError('kind')}
        >
          {(Object.keys(KIND_LABELS) as WebhookKind[]).map((value) => (
            <option key={value} value={value}>
              {KIND_LABELS[value]}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        label="Webhook URL"
        type="url"
        inputMode="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={fieldError('url')}
        maxLength={WEBHOOK_LIMITS.url}
        required={!webhook}
        autoComplete="off"
        placeholder={URL_PLACEHOLDERS[kind]}
        hint={
          webhook
            ? `Saved as ${webhook.url}: leave empty to keep it.`
            : 'Kept secret: the dashboard only shows its host from now on.'
        }
      />
      <fieldset className="fieldset">
        <legend>Notifications to send</legend>
        <div className="grid-2">
          {ALL_TYPES.map((type) => (
            <Checkbox
              key={type}
              label={TYPE_LABELS[type]}
              checked={types.includes(type)}
              onChange={(e) => toggleType(type, e.target.checked)}
            />
          ))}
        </div>
        {fieldError('types') && <span className="field-error">{fieldError('types')}</span>}
      </fieldset>
      {kind === 'generic' && (
        <>
          <TextField
            label="Signing secret"
            type="password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            error={fieldError('secret')}
            maxLength={WEBHOOK_LIMITS.secretMax}
            autoComplete="new-password"
            hint={
              webhook
                ? 'Leave empty to keep the current secret, if one is set. Type a new one to replace it.'
                : '16 to 200 characters. Each request then carries X-Dashboard-Signature (HMAC-SHA256 of the body).'
            }
          />
          {webhook && (
            <Checkbox
              label="Stop signing requests (remove any secret)"
              checked={removeSecret}
              onChange={(e) => setRemoveSecret(e.target.checked)}
            />
          )}
        </>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy || (!webhook && !url.trim())}>
          {busy ? 'Saving…' : webhook ? 'Save changes' : 'Add webhook'}
        </button>
      </div>
    </form>
  );
}
