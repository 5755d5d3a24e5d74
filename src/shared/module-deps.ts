import type { FastifyBaseLogger } from 'fastify';
import type { Broker } from '../broker/broker.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';

/** The logging surface modules use; the process logger (pino) and test recorders both fit it. */
export type ModuleLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;

/**
 * What every module factory receives first, so each one is called the same way by the container.
 * A module that needs another module's service takes it as a second, module-specific argument.
 */
export interface ModuleDeps {
  config: Config;
  db: Db;
  broker: Broker;
  log: ModuleLog;
}
