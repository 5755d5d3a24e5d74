import { randomUUID } from 'node:crypto';

const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * A request's id: the caller's `X-Request-Id` when it is a plain token (so one id follows a
 * request through a proxy and into our logs), otherwise a new UUID (Fastify's `genReqId`).
 */
export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
