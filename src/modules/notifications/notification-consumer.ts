import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Broker, CHANNELS } from '../../broker/broker.js';
import { compileValidator } from '../../http/validation.js';
import { CreateNotificationBody } from './notifications.schema.js';
import type { CreateNotificationInput } from './notifications.service.js';

/**
 * Long enough for every API process to see a message published once, short enough that a
 * publisher repeating the same payload later (a daily reminder) is not swallowed.
 */
export const NOTIFICATION_CLAIM_TTL_MS = 60_000;

const validateInput = compileValidator({ schema: CreateNotificationBody, httpPart: 'body' });

/**
 * Every API process subscribes to `notification:create`; the one that wins `claimOnce` for a
 * message stores and pushes it, so a message becomes exactly one notification. The message has
 * the input shape of `POST /api/notifications`; an optional `requestId` names it (otherwise the
 * payload itself does).
 */
export async function consumeNotificationMessages(deps: {
  broker: Broker;
  create: (input: CreateNotificationInput) => Promise<unknown>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}): Promise<() => Promise<void>> {
  const { broker, create, log } = deps;
  return broker.subscribe(CHANNELS.notificationCreate, async (message) => {
    // Validation strips unknown fields in place: work on a copy, keep the original for the key.
    const input = JSON.parse(JSON.stringify(message ?? null)) as unknown;
    if (!validateInput(input)) {
      log.warn(
        { errors: validateInput.errors },
        'ignored a notification:create message that is not a valid notification',
      );
      return;
    }
    if (
      !(await broker.claimOnce(`notification:create:claim:${messageKey(message)}`, NOTIFICATION_CLAIM_TTL_MS))
    )
      return;
    try {
      await create(input as CreateNotificationInput);
    } catch (error) {
      log.error({ err: error }, 'could not store a notification received on notification:create');
    }
  });
}

function messageKey(message: unknown): string {
  const requestId = (message as { requestId?: unknown }).requestId;
  if (typeof requestId === 'string' && requestId !== '' && requestId.length <= 200) return `id:${requestId}`;
  return `sha256:${createHash('sha256').update(JSON.stringify(message)).digest('hex')}`;
}
