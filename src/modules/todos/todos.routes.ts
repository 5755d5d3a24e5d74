import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CachedRead } from '../../http/caching/http-caching.js';
import { listResponse, resolvePage } from '../../http/plumbing/pagination.js';
import { errorResponses, IdParams, SuccessMessage, toId } from '../../http/plumbing/schemas.js';
import { requireSomeField } from '../../http/plumbing/validation.js';
import {
  CreateTodoBody,
  DeleteCompletedResponse,
  DeleteTodosQuery,
  TodoListQuery,
  TodoListResponse,
  TodoResponse,
  UPDATABLE_TODO_FIELDS,
  UpdateTodoBody,
} from './todos.schema.js';
import { cleanTodoInput, type TodosService } from './todos.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['To-do items'];
const responseCache: CachedRead = { tables: ['todos'] };
// Callback style: an async hook would cost a promise and a microtask turn on every write.
const cleanBody = (request: { body: unknown }, _reply: unknown, done: () => void) => {
  cleanTodoInput(request.body);
  done();
};

export const todosRoutes: FastifyPluginAsyncTypebox<{ service: TodosService }> = async (app, { service }) => {
  app.get(
    '/to_do_list',
    {
      config: { responseCache, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'List to-do items by due date (undated last)',
        querystring: TodoListQuery,
        response: { 200: TodoListResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request) => {
      const page = resolvePage(request.query);
      const { items, total } = await service.list(page, request.query.order ?? 'asc');
      return listResponse(items, total, page);
    },
  );

  app.delete(
    '/to_do_list',
    {
      schema: {
        tags,
        summary: 'Delete every completed to-do item (used by the weekly job)',
        querystring: DeleteTodosQuery,
        response: { 200: DeleteCompletedResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async () => {
      const deleted = await service.deleteCompleted();
      return {
        success: true as const,
        message: `Deleted ${deleted} completed to-do items`,
        data: { deleted },
      };
    },
  );

  app.get(
    '/to_do_list/:id',
    {
      config: { responseCache, access: READ_ACCESS },
      schema: {
        tags,
        summary: 'One to-do item',
        params: IdParams,
        response: { 200: TodoResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => ({ success: true as const, data: await service.get(toId(request.params.id)) }),
  );

  app.post(
    '/to_do_list',
    {
      preValidation: cleanBody,
      schema: {
        tags,
        summary: 'Create a to-do item (tags removed, title escaped)',
        body: CreateTodoBody,
        response: { 201: TodoResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ success: true as const, data: await service.create(request.body) }),
  );

  app.put(
    '/to_do_list/:id',
    {
      preValidation: cleanBody,
      schema: {
        tags,
        summary: 'Change some fields of a to-do item (null or "" clears the link)',
        params: IdParams,
        body: UpdateTodoBody,
        response: { 200: TodoResponse, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      requireSomeField(request.body, UPDATABLE_TODO_FIELDS);
      return { success: true as const, data: await service.update(toId(request.params.id), request.body) };
    },
  );

  app.delete(
    '/to_do_list/:id',
    {
      schema: {
        tags,
        summary: 'Delete a to-do item',
        params: IdParams,
        response: { 200: SuccessMessage, ...errorResponses(400, 401, 404, 500) },
      },
    },
    async (request) => {
      const id = toId(request.params.id);
      await service.remove(id);
      return { success: true as const, message: `To-do item ${id} deleted` };
    },
  );
};
