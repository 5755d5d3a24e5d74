import type { Broker } from './broker.js';
import { createInProcessBroker } from './in-process-broker.js';
import { createRedisBroker } from './redis-broker.js';

export interface CreateBrokerOptions {
  /** REDIS_URL; the in-process broker (embedded default) when absent. */
  redisUrl?: string;
  namespace?: string;
  onError?: (error: unknown) => void;
}

export function createBroker(options: CreateBrokerOptions): Broker {
  const { redisUrl, namespace, onError } = options;
  if (redisUrl) return createRedisBroker({ url: redisUrl, namespace, onError });
  return createInProcessBroker({ namespace, onHandlerError: onError });
}
