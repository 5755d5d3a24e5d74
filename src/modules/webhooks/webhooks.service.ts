import { randomUUID } from 'node:crypto';
import { resolvesToInternalAddress } from '../../integrations/webhooks/address-rule.js';
import type { Page } from '../../shared/page.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import { NOTIFICATION_TYPES, type NotificationType } from '../notifications/notification-sink.js';
import { type AttemptResult, attemptDelivery, type WebhookDispatcherOptions } from './webhook-dispatcher.js';
import type { WebhookJobsRepository } from './webhook-jobs.repository.js';
import type { WebhookEvent } from './webhook-payloads.js';
import type { WebhookRow, WebhooksRepository, WebhookWrite } from './webhooks.repository.js';
import type {
  CreateWebhookBody,
  TestDeliveryResult,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
  WebhookKind,
} from './webhooks.schema.js';

/** `https://hooks.slack.com/services/T0/B0/xyz` → `https://hooks.slack.com/…` (never the path). */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return '…';
  }
}

export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as WebhookKind,
    url: maskUrl(row.url),
    types: JSON.parse(row.types) as NotificationType[],
    createdAt: row.created_at,
    lastDeliveryAt: row.last_delivery_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
  };
}

export interface WebhooksServiceDeps {
  webhooks: WebhooksRepository;
  jobs: WebhookJobsRepository;
  delivery: Pick<WebhookDispatcherOptions, 'send' | 'timeoutMs' | 'refuseInternal'>;
}

/** Keeps the order of the six types and drops repeats. */
const normaliseTypes = (types: readonly NotificationType[]) =>
  NOTIFICATION_TYPES.filter((type) => types.includes(type));

const secretOnlyForGeneric = () =>
  ValidationError.single('secret', 'INVALID_VALUE', 'A secret can only be set on a generic webhook');

export function createWebhooksService({ webhooks, jobs, delivery }: WebhooksServiceDeps) {
  const notFound = (id: number) => new NotFoundError(`Webhook ${id} not found`);

  async function requireRow(id: number): Promise<WebhookRow> {
    const row = await webhooks.findById(id);
    if (!row) throw notFound(id);
    return row;
  }

  /** Production refuses targets inside the network unless the operator allowed them. */
  async function checkTarget(url: string): Promise<void> {
    if (delivery.refuseInternal && (await resolvesToInternalAddress(new URL(url)))) {
      throw ValidationError.single(
        'url',
        'INVALID_URL',
        'The URL points at a private, loopback or link-local address (set WEBHOOK_ALLOW_PRIVATE=true to allow it)',
      );
    }
  }

  async function record(row: WebhookRow, event: WebhookEvent, deliveryId: string, result: AttemptResult) {
    const at = new Date().toISOString();
    if (!(await webhooks.recordOutcome(row.id, { at, status: result.status, error: result.error }))) return;
    await jobs.recordAttempt({
      webhookId: row.id,
      notificationId: event.id,
      deliveryId,
      attempt: 1,
      status: result.status,
      error: result.error,
      durationMs: result.durationMs,
      at,
    });
  }

  return {
    async list(page: Page) {
      const { rows, total } = await webhooks.list(page.limit, page.offset);
      return { items: rows.map(toWebhook), total };
    },

    async get(id: number): Promise<Webhook> {
      return toWebhook(await requireRow(id));
    },

    async create(body: CreateWebhookBody): Promise<Webhook> {
      if (body.kind !== 'generic' && body.secret != null) throw secretOnlyForGeneric();
      await checkTarget(body.url);
      const row = await webhooks.create({
        name: body.name ?? null,
        kind: body.kind,
        url: body.url,
        secret: body.secret ?? null,
        types: normaliseTypes(body.types ?? NOTIFICATION_TYPES),
      });
      return toWebhook(row);
    },

    /** Only the given fields change; a webhook that stops being generic loses its secret. */
    async update(id: number, body: UpdateWebhookBody): Promise<Webhook> {
      const current = await requireRow(id);
      const kind = body.kind ?? (current.kind as WebhookKind);
      if (kind !== 'generic' && body.secret != null) throw secretOnlyForGeneric();
      if (body.url !== undefined) await checkTarget(body.url);
      const patch: Partial<WebhookWrite> = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.kind !== undefined ? { kind: body.kind } : {}),
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.types !== undefined ? { types: normaliseTypes(body.types) } : {}),
        ...(body.secret !== undefined ? { secret: body.secret } : {}),
        ...(kind !== 'generic' ? { secret: null } : {}),
      };
      const row = await webhooks.update(id, patch);
      if (!row) throw notFound(id);
      return toWebhook(row);
    },

    async remove(id: number): Promise<void> {
      if (!(await webhooks.delete(id))) throw notFound(id);
    },

    /** One `system` test message, sent now, once, with no notification behind it. */
    async sendTest(id: number): Promise<TestDeliveryResult> {
      const row = await requireRow(id);
      const event: WebhookEvent = {
        id: null,
        type: 'system',
        title: 'Test message from the E2E dashboard',
        message: 'This webhook is set up correctly: notifications of the chosen types will arrive here.',
        data: { test: true },
        createdAt: new Date().toISOString(),
      };
      const deliveryId = randomUUID();
      const result = await attemptDelivery(delivery, row, event, deliveryId);
      await record(row, event, deliveryId, result);
      return { delivered: result.delivered, status: result.status, error: result.error };
    },

    async deliveries(id: number): Promise<WebhookDelivery[]> {
      await requireRow(id);
      const rows = await jobs.recentAttempts(id);
      return rows.map((row) => ({
        id: row.id,
        notificationId: row.notification_id,
        attempt: row.attempt,
        status: row.status,
        error: row.error,
        durationMs: row.duration_ms,
        at: row.at,
      }));
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
