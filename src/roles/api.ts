import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { Container } from '../container.js';

export interface ApiRole {
  app: FastifyInstance;
  /** The address the HTTP server listens on. */
  address: string;
  stop(): Promise<void>;
}

/** The api role: the HTTP application over the container, listening on HOST:PORT. */
export async function startApiRole(container: Container): Promise<ApiRole> {
  const app = await buildApp(container);
  const address = await app.listen({ host: container.config.host, port: container.config.port });
  return { app, address, stop: () => app.close() };
}
