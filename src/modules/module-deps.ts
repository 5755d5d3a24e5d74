import type { Broker } from '../broker/broker.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { Log } from '../shared/log.js';

/**
 * What every module factory receives first, so each one is called the same way by the container.
 * A module that needs another module's service, or an integration client, takes it as a second,
 * module-specific argument.
 */
export interface ModuleDeps {
  config: Config;
  db: Db;
  broker: Broker;
  log: Log;
}
