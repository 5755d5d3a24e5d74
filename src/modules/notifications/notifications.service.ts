import { NotFoundError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';
import type { NotificationInput, NotificationType } from './notification-sink.js';
import type {
  NotificationFilter,
  NotificationRow,
  NotificationsRepository,
  NotificationWrite,
} from './notifications.repository.js';
import type { Notification, UpdateNotificationBody } from './notifications.schema.js';

/** The sink's input, also accepting `data: null` as the HTTP body does. */
export type CreateNotificationInput = Omit<NotificationInput, 'data'> & {
  data?: Record<string, unknown> | null;
};

export interface NotificationsServiceDeps {
  notificationsRepository: NotificationsRepository;
  /** Starts the push of a stored notification; must return at once and never throw. */
  push?: (notification: Notification) => void;
  /**
   * Runs once the notification is stored and before `create` resolves (webhook deliveries are
   * queued in the database here, so they survive a restart); must not throw.
   */
  afterCreate?: (notification: Notification) => Promise<void>;
}

export function toNotification(row: NotificationRow): Notification {
  const { data } = row;
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    type: row.type as NotificationType,
    isRead: row.is_read,
    createdAt: row.created_at,
    ...(data !== null ? { data } : {}),
  };
}

const toDataText = (data: Record<string, unknown> | null | undefined) =>
  data === undefined ? undefined : data === null ? null : JSON.stringify(data);

export function createNotificationsService({
  notificationsRepository,
  push,
  afterCreate,
}: NotificationsServiceDeps) {
  const notFound = (id: number) => new NotFoundError(`Notification ${id} not found`);

  return {
    async list(filter: NotificationFilter, page: Page, order: 'asc' | 'desc' = 'desc') {
      const { rows, total } = await notificationsRepository.list(filter, page.limit, page.offset, order);
      return { items: rows.map(toNotification), total };
    },

    async get(id: number): Promise<Notification> {
      const row = await notificationsRepository.findById(id);
      if (!row) throw notFound(id);
      return toNotification(row);
    },

    /**
     * Stores the notification and starts its push; resolves once stored (the push goes on in
     * the background). Matches `NotificationSink`, so other modules can be handed this function.
     */
    async create(input: CreateNotificationInput): Promise<Notification> {
      const row = await notificationsRepository.create({
        title: input.title,
        message: input.message,
        type: input.type,
        data: toDataText(input.data) ?? null,
        isRead: false,
      });
      const notification = toNotification(row);
      push?.(notification);
      await afterCreate?.(notification);
      return notification;
    },

    async update(id: number, body: UpdateNotificationBody): Promise<Notification> {
      const patch: Partial<NotificationWrite> = {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.message !== undefined ? { message: body.message } : {}),
        ...(body.type !== undefined ? { type: body.type } : {}),
        ...(body.data !== undefined ? { data: toDataText(body.data) } : {}),
        ...(body.isRead !== undefined ? { isRead: body.isRead } : {}),
      };
      const row = await notificationsRepository.update(id, patch);
      if (!row) throw notFound(id);
      return toNotification(row);
    },

    async markRead(id: number): Promise<void> {
      if (!(await notificationsRepository.update(id, { isRead: true }))) throw notFound(id);
    },

    /** Marks every unread notification read, or only those of `type`; returns how many changed. */
    async markAllRead(type?: NotificationType): Promise<number> {
      return notificationsRepository.markAllRead(type);
    },

    async remove(id: number): Promise<void> {
      if (!(await notificationsRepository.delete(id))) throw notFound(id);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
