import { useState } from 'react';
import type { ToDoItem as Todo } from '../../../src/client/index.js';
import { TODO_LIMITS } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { fieldMessage, fieldProblems } from '../api/errors';
import { ErrorMessage, TextArea, TextField } from '../components/ui';
import { decodeEntities } from '../lib/text';
import { useSubmit } from '../lib/useSubmit';

const LABELS: Record<string, string> = {
  title: 'Title',
  description: 'Notes',
  link: 'Link',
  dueDate: 'Due date',
};

/** Creates a to-do or edits one; titles are shown decoded and sent back as plain text. */
export function TodoForm({
  todo,
  onSaved,
  onCancel,
  compact,
}: {
  todo?: Todo;
  onSaved: (todo: Todo) => void;
  onCancel?: () => void;
  compact?: boolean;
}) {
  const [title, setTitle] = useState(todo ? decodeEntities(todo.title) : '');
  const [dueDate, setDueDate] = useState(todo?.dueDate?.slice(0, 10) ?? '');
  const [link, setLink] = useState(todo?.link ?? '');
  const [description, setDescription] = useState(todo?.description ?? '');
  const client = useClient();

  const { busy, error, onSubmit } = useSubmit(async () => {
    const body = todo
      ? { title, description: description || null, link: link.trim() || null, dueDate: dueDate || null }
      : {
          title,
          ...(description ? { description } : {}),
          ...(link.trim() ? { link: link.trim() } : {}),
          ...(dueDate ? { dueDate } : {}),
        };
    const saved = todo ? await client.todos.update(todo.id, body) : await client.todos.create(body);
    onSaved(saved.data);
    if (!todo) {
      setTitle('');
      setDueDate('');
      setLink('');
      setDescription('');
    }
  });

  const fieldError = (field: string) => fieldMessage(error, field, LABELS[field] ?? field);
  const unplaced = fieldProblems(error).some((p) => p.field in LABELS) ? undefined : error;

  return (
    <form onSubmit={onSubmit} noValidate className={compact ? 'form todo-form' : 'form'}>
      <ErrorMessage error={unplaced} />
      <TextField
        label={todo ? 'Title' : 'New to-do'}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={fieldError('title')}
        maxLength={TODO_LIMITS.title}
        required
        placeholder={todo ? undefined : 'What needs doing?'}
      />
      <div className="grid-2">
        <TextField
          label="Due date"
          type="date"
          value={dueDate}
          onChange={(e) => setDueDate(e.target.value)}
          error={fieldError('dueDate')}
        />
        <TextField
          label="Link"
          type="url"
          inputMode="url"
          value={link}
          onChange={(e) => setLink(e.target.value)}
          error={fieldError('link')}
          maxLength={TODO_LIMITS.link}
          placeholder="https://…"
        />
      </div>
      <TextArea
        label="Notes"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={fieldError('description')}
        rows={compact ? 2 : 4}
      />
      <div className="dialog-actions">
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy || !title.trim()}>
          {busy ? 'Saving…' : todo ? 'Save changes' : 'Add to-do'}
        </button>
      </div>
    </form>
  );
}
