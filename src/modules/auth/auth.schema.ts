import { type Static, Type } from '@sinclair/typebox';
import { OrNull, StringEnum } from '../../http/plumbing/schemas.js';
import { KEY_SCOPES } from '../../shared/credentials.js';

export const ValidateKeyBody = Type.Object({ apiKey: Type.String({ description: 'The key to check' }) });
export type ValidateKeyBody = Static<typeof ValidateKeyBody>;

/** 200: the key is API_SECURITY_KEY or a valid key made through the API. */
export const ValidKey = Type.Object({
  valid: Type.Boolean(),
  message: Type.String(),
  /** What the key may do. */
  scope: StringEnum(KEY_SCOPES),
  /** The name given at creation; null for API_SECURITY_KEY. */
  name: OrNull(Type.String()),
});
export type ValidKey = Static<typeof ValidKey>;

/** 400 (no usable key in the body) and 401 (wrong key): each counts as a failed attempt. */
export const RefusedKey = Type.Object({
  valid: Type.Boolean(),
  message: Type.String(),
  attemptsRemaining: Type.Integer({
    minimum: 0,
    description:
      'failed attempts this address may still make before the next one blocks it (BRUTE_FORCE_MAX_ATTEMPTS minus the failures in the window)',
  }),
});
export type RefusedKey = Static<typeof RefusedKey>;

/** 429: the address is blocked. */
export const KeyChecksBlocked = Type.Object({
  error: Type.String(),
  retryAfter: Type.Integer({ description: 'seconds until the block ends' }),
});
export type KeyChecksBlocked = Static<typeof KeyChecksBlocked>;

/** Any answer of `POST /api/auth/validate` other than the 429. */
export type ValidateKeyResponse = ValidKey | RefusedKey;
