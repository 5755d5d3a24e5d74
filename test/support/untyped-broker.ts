import type { MessageHandler, PubSub } from '../../src/broker/broker.js';

/** The broker without the catalogue's types: any channel name, any payload. */
export interface UntypedPubSub {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>;
}

/**
 * The broker as something outside this code base sees it: Redis accepts whatever anyone with
 * access publishes, so tests use this view to send malformed messages, and the contract tests to
 * exercise the transport on channels of their own.
 */
export const untyped = (broker: PubSub): UntypedPubSub => broker;
