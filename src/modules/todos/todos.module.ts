import type { DatabaseHandle } from '../../db/database.js';
import type { ModuleDeps } from '../module-deps.js';
import { createTodosRepository, type TodosRepository } from './todos.repository.js';
import { createTodosService, type TodosService } from './todos.service.js';

export interface TodosModule {
  service: TodosService;
  repository: TodosRepository;
}

/** The to-do list; `links.dialect` is the open database's, which decides how an insert reads its row. */
export function createTodosModule(
  { db }: ModuleDeps,
  links: { dialect: DatabaseHandle['dialect'] },
): TodosModule {
  const repository = createTodosRepository(db, links.dialect);
  return { service: createTodosService({ todosRepository: repository }), repository };
}
