import type { BaseLogger } from 'pino';

/**
 * The logging surface of modules, integrations and background work: the process logger (pino,
 * also as Fastify's logger) and the recorders of tests both fit it.
 */
export type Log = Pick<BaseLogger, 'info' | 'warn' | 'error' | 'debug'>;
