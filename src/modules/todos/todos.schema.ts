import { type Static, Type } from '@sinclair/typebox';
import { TODO_LIMITS } from '../../client/field-limits.js';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { HttpUrl, Nullable, OrNull, Text, Timestamp } from '../../http/plumbing/schemas.js';

export const ToDoItem = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    description: OrNull(Type.String()),
    link: OrNull(Type.String()),
    dueDate: OrNull(Timestamp),
    isCompleted: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'ToDoItem', title: 'ToDoItem' },
);
export type ToDoItem = Static<typeof ToDoItem>;

// Values are validated after tag removal (see todos.routes.ts), so limits apply to the plain text.
const todoFields = {
  title: Text(TODO_LIMITS.title),
  description: Nullable(Type.String()),
  link: Nullable(HttpUrl(TODO_LIMITS.link)),
  dueDate: Nullable(Type.String({ format: 'iso-instant' })),
  isCompleted: Type.Boolean(),
};

export const CreateTodoBody = Type.Object(
  {
    title: todoFields.title,
    description: Type.Optional(todoFields.description),
    link: Type.Optional(todoFields.link),
    dueDate: Type.Optional(todoFields.dueDate),
    isCompleted: Type.Optional(todoFields.isCompleted),
  },
  { additionalProperties: false },
);
export type CreateTodoBody = Static<typeof CreateTodoBody>;

export const UpdateTodoBody = Type.Partial(Type.Object(todoFields), { additionalProperties: false });
export type UpdateTodoBody = Static<typeof UpdateTodoBody>;
export const UPDATABLE_TODO_FIELDS = Object.keys(todoFields);

export const TodoListQuery = Type.Object(
  { ...PaginationQuery, order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])) },
  { additionalProperties: false },
);

export const DeleteTodosQuery = Type.Object(
  { completed: Type.Union([Type.Literal('true'), Type.Literal('1')]) },
  { additionalProperties: false },
);

export const TodoResponse = Type.Object({ success: Type.Literal(true), data: Type.Ref(ToDoItem) });
export const TodoListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(ToDoItem)),
  pagination: Type.Optional(PaginationSchema),
});
export const DeleteCompletedResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({ deleted: Type.Integer() }),
});
