import type { ToDoItem as Todo } from '../../../src/client/index.js';
import { describeError } from '../api/errors';
import { IfCanChange } from '../lib/access';
import { decodeEntities } from '../lib/text';
import { formatDate } from '../lib/time';

/** Due dates are days: a to-do is overdue from the day after its due date (UTC, as the API stores it). */
export function dueState(todo: Todo, today: string): 'overdue' | 'today' | undefined {
  if (!todo.dueDate || todo.isCompleted) return undefined;
  const day = todo.dueDate.slice(0, 10);
  return day < today ? 'overdue' : day === today ? 'today' : undefined;
}

interface TodoItemProps {
  todo: Todo;
  today: string;
  canChange: boolean;
  /** Why the last change of this row failed, shown under it. */
  error: unknown;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One row of the to-do list: its check box, title, due date, link, notes and actions. */
export function TodoItem({ todo, today, canChange, error, onToggle, onEdit, onDelete }: TodoItemProps) {
  const title = decodeEntities(todo.title);
  const due = dueState(todo, today);
  return (
    <li className={`list-item todo ${todo.isCompleted ? 'todo-done' : ''} ${due ? `todo-${due}` : ''}`}>
      <input
        type="checkbox"
        className="todo-check"
        checked={todo.isCompleted}
        onChange={onToggle}
        disabled={!canChange}
        aria-label={`Completed: ${title}`}
      />
      <div className="list-main">
        <span className="todo-title">{title}</span>
        <span className="small block">
          {todo.dueDate && (
            <span
              className={
                due === 'overdue' ? 'text-bad strong' : due === 'today' ? 'text-warn strong' : 'muted'
              }
            >
              {due === 'overdue' ? 'Overdue · was due ' : due === 'today' ? 'Due today · ' : 'Due '}
              {formatDate(`${todo.dueDate.slice(0, 10)}T12:00:00Z`)}
            </span>
          )}
          {todo.link && (
            <>
              {todo.dueDate && ' · '}
              <a href={todo.link} target="_blank" rel="noopener noreferrer">
                {todo.link.replace(/^https?:\/\//, '').slice(0, 60)}
              </a>
            </>
          )}
        </span>
        {todo.description && <p className="todo-notes">{todo.description}</p>}
        {error !== undefined && (
          <span className="field-error block" role="alert">
            {describeError(error)}
          </span>
        )}
      </div>
      <IfCanChange>
        <div className="actions">
          <button type="button" className="button button-small" onClick={onEdit}>
            Edit<span className="sr-only"> {title}</span>
          </button>
          <button type="button" className="button button-small button-danger-ghost" onClick={onDelete}>
            Delete<span className="sr-only"> {title}</span>
          </button>
        </div>
      </IfCanChange>
    </li>
  );
}
