/**
 * The broker contract shared by the in-process implementation (embedded default) and the Redis
 * one (REDIS_URL). Channel and key names are the spec's (`e2e:report:generate`, …); a non-empty
 * `namespace` prefixes every key and channel, which only tests use to stay isolated.
 *
 * This file holds the publish/subscribe part every module needs. The report work queue
 * (queue, in-flight, retry set, dead letters) extends it in the report pipeline.
 */
export type MessageHandler = (message: unknown) => void | Promise<void>;

export interface Broker {
  readonly kind: 'in-process' | 'redis';
  /** Publishes a JSON-serialisable message; rejects (after the retry policy) when the broker is down. */
  publish(channel: string, message: unknown): Promise<void>;
  /** Subscribes; the returned function unsubscribes. Handler errors are logged, never thrown back. */
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>;
  /**
   * True for exactly one caller per key until `ttlMs` passes: lets every subscriber of a
   * channel agree on the single one that acts on a message.
   */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Resolves when the broker answers (health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const CHANNELS = {
  reportGenerate: 'e2e:report:generate',
  notificationCreate: 'notification:create',
} as const;
