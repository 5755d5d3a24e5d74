import type { PushMessage } from '../../integrations/fcm/fcm-sender.js';

export interface PushableNotification {
  id: number;
  title: string;
  message: string;
  type: string;
  data?: Record<string, unknown>;
}

// FCM refuses a message whose data uses these keys, and whole payloads over 4096 bytes.
const RESERVED_DATA_KEY = /^(from|message_type|collapse_key|notification)$|^(google|gcm)/;
const MAX_TITLE = 200;
const MAX_BODY = 1000;
const MAX_DATA_BYTES = 2048;

const shorten = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The push payload of a notification: `{title, body: message}` and `data` = the notification's
 * data with every value as a string (objects as JSON), plus `notificationId` and `type`, which
 * always win over data keys of the same name. Oversized text is shortened and oversized data is
 * left out (the app can fetch the notification by id), so a big notification still arrives.
 */
export function toPushMessage(notification: PushableNotification): PushMessage {
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(notification.data ?? {})) {
    if (value === undefined || RESERVED_DATA_KEY.test(key)) continue;
    data[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const size = Object.entries(data).reduce(
    (total, [key, value]) => total + Buffer.byteLength(key) + Buffer.byteLength(value),
    0,
  );
  return {
    title: shorten(notification.title, MAX_TITLE),
    body: shorten(notification.message, MAX_BODY),
    data: {
      ...(size <= MAX_DATA_BYTES ? data : {}),
      notificationId: String(notification.id),
      type: notification.type,
    },
  };
}
