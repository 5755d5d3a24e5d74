import { useState } from 'react';
import type { ToDoItem as Todo } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import { describeError } from '../api/errors';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog';
import { Checkbox, Dialog, EmptyState, ErrorMessage, Spinner } from '../components/ui';
import { usePageTitle, useQueryParam } from '../lib/router';
import { decodeEntities } from '../lib/text';
import { todayUtc } from '../lib/time';
import { useAsync } from '../lib/useAsync';
import { useConfirmedDelete } from '../lib/useConfirmedDelete';
import { useShell } from '../shell';
import { TodoForm } from './TodoForm';
import { dueState, TodoItem } from './TodoItem';
import { IfCanChange, useCanChange } from '../lib/access';

export function TodosPage() {
  usePageTitle('To-dos');
  const { notify } = useShell();
  const client = useClient();
  const todos = useAsync(async () => (await client.todos.list({ limit: 100 })).data, [client]);
  // Kept in the address (`?completed=hidden`) like the other list filters.
  const [completedParam, setCompletedParam] = useQueryParam('completed', 'shown');
  const showCompleted = completedParam !== 'hidden';
  const [editing, setEditing] = useState<Todo>();
  const canChange = useCanChange();
  const [rowError, setRowError] = useState<{ id: number; error: unknown }>();
  const today = todayUtc();

  const replace = (todo: Todo) =>
    todos.setData((list) => (list ?? []).map((t) => (t.id === todo.id ? todo : t)));

  const toggle = async (todo: Todo) => {
    setRowError(undefined);
    replace({ ...todo, isCompleted: !todo.isCompleted });
    try {
      replace((await client.todos.update(todo.id, { isCompleted: !todo.isCompleted })).data);
    } catch (error) {
      replace(todo);
      setRowError({ id: todo.id, error });
    }
  };

  const deletion = useConfirmedDelete<Todo>(
    (todo) => client.todos.remove(todo.id),
    (todo) => {
      todos.setData((list) => list?.filter((t) => t.id !== todo.id));
      notify('To-do deleted.');
    },
  );

  const clearCompleted = async () => {
    try {
      await client.todos.deleteCompleted();
      todos.setData((list) => list?.filter((t) => !t.isCompleted));
      notify('Completed to-dos cleared.');
    } catch (error) {
      notify(describeError(error), 'bad');
    }
  };

  const all = todos.data ?? [];
  const visible = showCompleted ? all : all.filter((t) => !t.isCompleted);
  const open = all.filter((t) => !t.isCompleted);
  const overdue = open.filter((t) => dueState(t, today) === 'overdue').length;

  return (
    <>
      <div className="page-header">
        <h1 id="page-title" tabIndex={-1}>
          To-dos
        </h1>
        <p className="muted">
          {open.length} open{overdue > 0 && <strong className="text-bad"> · {overdue} overdue</strong>}
        </p>
      </div>
      <IfCanChange>
        <section className="panel" aria-label="Add a to-do">
          <TodoForm
            compact
            onSaved={(todo) => {
              todos.reload();
              notify(`Added “${decodeEntities(todo.title)}”.`);
            }}
          />
        </section>
      </IfCanChange>
      <div className="toolbar">
        <Checkbox
          label="Show completed"
          checked={showCompleted}
          onChange={(e) => setCompletedParam(e.target.checked ? 'shown' : 'hidden')}
        />
        {canChange && all.some((t) => t.isCompleted) && (
          <button type="button" className="button button-small" onClick={() => void clearCompleted()}>
            Clear completed
          </button>
        )}
      </div>
      {todos.loading && !todos.data && <Spinner />}
      <ErrorMessage error={todos.error} onRetry={todos.reload} />
      {todos.data && visible.length === 0 && (
        <EmptyState title={all.length ? 'Everything is done.' : 'Nothing to do yet.'} />
      )}
      {visible.length > 0 && (
        <ul className="list" aria-label="To-dos">
          {visible.map((todo) => (
            <TodoItem
              key={todo.id}
              todo={todo}
              today={today}
              canChange={canChange}
              error={rowError?.id === todo.id ? rowError.error : undefined}
              onToggle={() => void toggle(todo)}
              onEdit={() => setEditing(todo)}
              onDelete={() => deletion.ask(todo)}
            />
          ))}
        </ul>
      )}
      <Dialog open={editing !== undefined} title="Edit to-do" onClose={() => setEditing(undefined)}>
        {editing && (
          <TodoForm
            key={editing.id}
            todo={editing}
            onCancel={() => setEditing(undefined)}
            onSaved={() => {
              setEditing(undefined);
              todos.reload();
              notify('To-do saved.');
            }}
          />
        )}
      </Dialog>
      <ConfirmDeleteDialog
        deletion={deletion}
        title="Delete to-do?"
        message={(todo) => `“${decodeEntities(todo.title)}” will be deleted.`}
      />
    </>
  );
}
