import { type Static, Type } from '@sinclair/typebox';
import { Text } from '../../http/plumbing/schemas.js';

export const MAX_TOKEN_LENGTH = 4096;

export const DeviceTokenBody = Type.Object(
  { token: Text(MAX_TOKEN_LENGTH, { description: 'FCM registration token of the device' }) },
  { additionalProperties: false },
);
export type DeviceTokenBody = Static<typeof DeviceTokenBody>;
