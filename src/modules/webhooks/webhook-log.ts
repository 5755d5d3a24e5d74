import type { FastifyBaseLogger } from 'fastify';

/** The logging surface of the webhooks module (the process logger or a test recorder). */
export type ModuleLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;
