import { Type } from '@sinclair/typebox';
import type { Page } from '../../shared/page.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** `limit` 1–100 (default 50), `offset` ≥ 0 (default 0); shared by every list endpoint. */
export const PaginationQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
};

export const PaginationSchema = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  hasMore: Type.Boolean(),
});

export function resolvePage(query: { limit?: number; offset?: number }): Page {
  return {
    limit: query.limit ?? DEFAULT_LIMIT,
    offset: query.offset ?? 0,
    requested: query.limit !== undefined || query.offset !== undefined,
  };
}

export function listResponse<T>(items: T[], total: number, page: Page) {
  return {
    success: true as const,
    data: items,
    ...(page.requested
      ? {
          pagination: {
            total,
            limit: page.limit,
            offset: page.offset,
            hasMore: page.offset + items.length < total,
          },
        }
      : {}),
  };
}
