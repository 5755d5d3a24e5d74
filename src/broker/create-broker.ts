import type { Broker, BrokerLog } from './broker.js';
import { createInProcessBroker } from './in-process-broker.js';
import { createRedisBroker } from './redis-broker.js';

export interface CreateBrokerOptions {
  /** REDIS_URL; the in-process broker (embedded default) when absent. */
  redisUrl?: string;
  namespace?: string;
  onError?: (error: unknown) => void;
  /** Told of messages dropped because they do not fit their channel. */
  log?: BrokerLog;
}

export function createBroker(options: CreateBrokerOptions): Broker {
  const { redisUrl, namespace, onError, log } = options;
  if (redisUrl) return createRedisBroker({ url: redisUrl, namespace, onError, log });
  return createInProcessBroker({ namespace, onHandlerError: onError, log });
}
