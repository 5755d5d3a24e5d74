import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Broker, CHANNELS } from '../../broker/broker.js';
import type { NotificationCreateMessage } from '../../broker/channels.js';
import type { CreateNotificationInput } from './notifications.service.js';

/**
 * Long enough for every API process to see a message published once, short enough that a
 * publisher repeating the same payload later (a daily reminder) is not swallowed.
 */
export const NOTIFICATION_CLAIM_TTL_MS = 60_000;

/**
 * Every API process subscribes to `notification:create`; the one that wins `claimOnce` for a
 * message stores and pushes it, so a message becomes exactly one notification. The message has
 * the input shape of `POST /api/notifications`; an optional `requestId` names it (otherwise the
 * payload itself does).
 */
export async function consumeNotificationMessages(deps: {
  broker: Broker;
  create: (input: CreateNotificationInput) => Promise<unknown>;
  log: Pick<FastifyBaseLogger, 'error'>;
}): Promise<() => Promise<void>> {
  const { broker, create, log } = deps;
  // The broker has checked the message against its schema (malformed ones never arrive here).
  return broker.subscribe(CHANNELS.notificationCreate, async (message) => {
    if (
      !(await broker.claimOnce(`notification:create:claim:${messageKey(message)}`, NOTIFICATION_CLAIM_TTL_MS))
    )
      return;
    const { title, type, data } = message;
    try {
      await create({ title, message: message.message, type, ...(data !== undefined ? { data } : {}) });
    } catch (error) {
      log.error({ err: error }, 'could not store a notification received on notification:create');
    }
  });
}

function messageKey(message: NotificationCreateMessage): string {
  const { requestId } = message;
  if (requestId !== undefined && requestId !== '' && requestId.length <= 200) return `id:${requestId}`;
  return `sha256:${createHash('sha256').update(JSON.stringify(message)).digest('hex')}`;
}
