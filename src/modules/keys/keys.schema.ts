import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, PaginationSchema } from '../../http/plumbing/pagination.js';
import { Nullable, OrNull, StringEnum, Text, Timestamp } from '../../http/plumbing/schemas.js';
import { KEY_LIMITS } from '../../client/field-limits.js';
import { KEY_SCOPES } from '../../shared/credentials.js';

/** What every API key answer shows: never the key itself, only its first 12 characters. */
const keyFields = {
  id: Type.Integer(),
  name: Type.String(),
  scope: StringEnum(KEY_SCOPES),
  apps: Type.Array(Type.String(), {
    description: 'application codes an upload key is limited to; empty = every application',
  }),
  prefix: Type.String({ description: 'the first 12 characters of the key, to recognise it' }),
  createdAt: Timestamp,
  expiresAt: OrNull(Timestamp),
};

export const ApiKey = Type.Object(
  {
    ...keyFields,
    // Written at most once a minute per key, so it may lag the real last use by that much.
    lastUsedAt: OrNull(Timestamp),
    revokedAt: OrNull(Timestamp),
  },
  { $id: 'ApiKey', title: 'ApiKey' },
);
export type ApiKey = Static<typeof ApiKey>;

/** The answer of `POST /api/keys`: the only time the key itself is shown. */
export const CreatedApiKey = Type.Object(
  {
    id: keyFields.id,
    name: keyFields.name,
    scope: keyFields.scope,
    apps: keyFields.apps,
    prefix: keyFields.prefix,
    key: Type.String({
      description: '`tdk_` and 43 URL-safe base64 characters; shown once, stored only as its SHA-256',
    }),
    createdAt: keyFields.createdAt,
    expiresAt: keyFields.expiresAt,
    lastUsedAt: Type.Null(),
  },
  { title: 'CreatedApiKey' },
);
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const CreateKeyBody = Type.Object(
  {
    name: Text(KEY_LIMITS.name),
    scope: StringEnum(KEY_SCOPES),
    apps: Type.Optional(
      Type.Array(Text(KEY_LIMITS.appCode), {
        maxItems: KEY_LIMITS.apps,
        description: 'upload keys only: the application codes it may upload for; absent or empty = every app',
      }),
    ),
    expiresAt: Type.Optional(
      Nullable(Type.String({ format: 'iso-instant', description: 'an instant in the future' })),
    ),
  },
  { additionalProperties: false },
);
export type CreateKeyBody = Static<typeof CreateKeyBody>;

export const KeyListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export type KeyListQuery = Static<typeof KeyListQuery>;

export const CreatedKeyResponse = Type.Object({ success: Type.Literal(true), data: CreatedApiKey });
export const KeyListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(ApiKey)),
  pagination: Type.Optional(PaginationSchema),
});
