import { NotFoundError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import { escapeHtml, stripTags } from '../../shared/sanitize.js';
import { parseIsoInstant } from '../../shared/time.js';
import type { TodoRow, TodosRepository, TodoWrite } from './todos.repository.js';
import type { CreateTodoBody, ToDoItem, UpdateTodoBody } from './todos.schema.js';

export function toToDoItem(row: TodoRow): ToDoItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    link: row.link,
    dueDate: row.due_date,
    isCompleted: row.is_completed,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Tag removal happens before validation (so limits and the URL check see the plain text), in
 * place on the parsed body. Values of the wrong type are left for the schema to report.
 */
export function cleanTodoInput(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const input = body as Record<string, unknown>;
  if (typeof input.title === 'string') input.title = stripTags(input.title).trim();
  if (typeof input.description === 'string') input.description = stripTags(input.description);
  if (typeof input.link === 'string') {
    const link = stripTags(input.link).trim();
    input.link = link === '' ? null : link;
  }
}

/** The given fields only (an update leaves the others alone), assigned one by one: no spreads. */
function toWrite(body: UpdateTodoBody): Partial<TodoWrite> {
  const write: Partial<TodoWrite> = {};
  // Only the title is escaped; stored escaped text decodes back on a re-save (never doubled).
  if (body.title !== undefined) write.title = escapeHtml(body.title);
  if (body.description !== undefined) write.description = body.description;
  if (body.link !== undefined) write.link = body.link;
  if (body.dueDate !== undefined)
    write.dueDate = body.dueDate === null ? null : parseIsoInstant(body.dueDate)!;
  if (body.isCompleted !== undefined) write.isCompleted = body.isCompleted;
  return write;
}

export function createTodosService({ todosRepository }: { todosRepository: TodosRepository }) {
  const notFound = (id: number) => new NotFoundError(`To-do item ${id} not found`);
  return {
    async list(page: Page, order: 'asc' | 'desc') {
      const { rows, total } = await todosRepository.list(page.limit, page.offset, order);
      return { items: rows.map(toToDoItem), total };
    },

    async get(id: number): Promise<ToDoItem> {
      const row = await todosRepository.findById(id);
      if (!row) throw notFound(id);
      return toToDoItem(row);
    },

    async create(body: CreateTodoBody): Promise<ToDoItem> {
      const write = toWrite(body);
      const row = await todosRepository.create({
        title: write.title!,
        description: write.description ?? null,
        link: write.link ?? null,
        dueDate: write.dueDate ?? null,
        isCompleted: write.isCompleted ?? false,
      });
      return toToDoItem(row);
    },

    async update(id: number, body: UpdateTodoBody): Promise<ToDoItem> {
      const row = await todosRepository.update(id, toWrite(body));
      if (!row) throw notFound(id);
      return toToDoItem(row);
    },

    async remove(id: number): Promise<void> {
      if (!(await todosRepository.delete(id))) throw notFound(id);
    },

    deleteCompleted: () => todosRepository.deleteCompleted(),
  };
}

export type TodosService = ReturnType<typeof createTodosService>;
