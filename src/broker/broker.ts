/**
 * The broker contract shared by the in-process implementation (embedded default) and the Redis
 * one (REDIS_URL): a generic, typed publish/subscribe (`PubSub`, its channels and payloads listed
 * in `channels.ts`) and, next to it on the same connection, the report work queue
 * (`report-queue.ts`). Channel and key names are the spec's; a non-empty `namespace` prefixes
 * every key and channel, which only tests use to stay isolated.
 */
import type { Channel, ChannelMessages, MessageOf } from './channels.js';
import type { BrokerLog } from './message-check.js';
import type { ReportQueue } from './report-queue.js';

export { CHANNELS, type Channel, type ChannelMessages, type MessageOf } from './channels.js';
export type { BrokerLog } from './message-check.js';
export {
  type DeadLetterEntry,
  type QueueStats,
  type ReportKeys,
  type ReportQueue,
  reportKeys,
} from './report-queue.js';

/**
 * Receives what arrived on a channel. Anyone with access to Redis can publish, so the broker
 * checks each message once against its channel's schema (`src/shared/messages.ts`) and drops,
 * with a warning, one that does not fit: a handler receives only messages of its channel's type.
 */
export type MessageHandler<M = unknown> = (message: M) => void | Promise<void>;

/** Publish/subscribe over the channels of the catalogue, plus the one-claimer primitive. */
export interface PubSub {
  readonly kind: 'in-process' | 'redis';
  /** Publishes a message of the channel's type; rejects (after the retry policy) when the broker is down. */
  publish<C extends Channel>(channel: C, message: ChannelMessages[C]): Promise<void>;
  /**
   * Subscribes; the returned function unsubscribes. Handler errors are logged, never thrown back.
   * Never rejects because the broker is down: the subscription takes effect when it answers.
   */
  subscribe<C extends Channel>(
    channel: C,
    handler: MessageHandler<MessageOf<C>>,
  ): Promise<() => Promise<void>>;
  /**
   * True for exactly one caller per key until `ttlMs` passes: lets every subscriber of a
   * channel agree on the single one that acts on a message.
   */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Returns (or resolves) when the broker answers, throws (or rejects) when it does not; the
   * in-process broker answers at once, so a health check of an embedded process costs no promise.
   */
  ping(): void | Promise<void>;
  close(): Promise<void>;
}

/** The process's broker: the pub/sub and the report work queue on the same connection. */
export interface Broker extends PubSub {
  /** The report work queue (docs/contract-notes.md, "Report processing"). */
  readonly reportQueue: ReportQueue;
}

export interface BrokerOptions {
  /** Prefix of every key and channel; '' (production) keeps the spec's exact names. */
  namespace?: string;
  /** Told of each message dropped because it does not fit its channel's schema. */
  log?: BrokerLog;
}
