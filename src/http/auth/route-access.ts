import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import type { Readable } from 'node:stream';
import type { Credential } from '../../shared/credentials.js';
import { ForbiddenError } from '../../shared/errors.js';
import { buildEnvelope } from '../plumbing/error-handler.js';

/**
 * Which keys may call a route besides admin keys, declared by the route where it is registered
 * (`config: { access: READ_ACCESS }`). A route that declares nothing is for admin keys only, so a
 * route added later is closed to narrower keys until it says otherwise.
 */
export interface RouteAccess {
  readonly scopes: readonly ('read' | 'upload')[];
  /**
   * How an upload key limited to some applications is held to them on this route: the query
   * parameter naming the application, by code or by id. A list route without the parameter is
   * told the allowed ids in `request.appLimit` and filters by them.
   */
  readonly uploadApps?: {
    readonly query: string;
    readonly by: 'code' | 'id';
    /** Where the parameter is: the query string (default) or the path (`/apps/:id/...`). */
    readonly in?: 'query' | 'params';
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scopes of keys made through the API that may call the route; absent = admin keys only. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** Who the request's key speaks for (set by the guard; undefined on a public route). */
    credential: Credential | undefined;
    /** The application ids an app-limited upload key may see (list routes filter by them). */
    appLimit: readonly number[] | undefined;
  }
}

/** Every `GET` under /api (but `/api/keys`) and the key check itself. */
export const READ_ACCESS: RouteAccess = Object.freeze({ scopes: Object.freeze(['read'] as const) });

export function scopeAllows(credential: Credential, access: RouteAccess | undefined): boolean {
  if (credential.scope === 'admin') return true;
  return access?.scopes.includes(credential.scope) === true;
}

/**
 * False for a key that must not be answered from (or fill) the shared response cache: an upload
 * key limited to some applications gets a narrower answer than the same URL gives anyone else.
 */
export function sharesCachedAnswers(credential: Credential | undefined): boolean {
  return credential === undefined || credential.scope !== 'upload' || credential.apps.length === 0;
}

/** 403 `FORBIDDEN`, naming the key's scope and nothing of the route's data. */
export function sendForbidden(
  request: FastifyRequest,
  reply: FastifyReply,
  credential: Credential,
  what = 'this request',
): FastifyReply {
  const error = new ForbiddenError(`A key of scope "${credential.scope}" may not make ${what}`, {
    scope: credential.scope,
  });
  return reply.status(403).send(buildEnvelope(error, request));
}

type Hooks<T> = T | T[] | undefined;
const asArray = <T>(hooks: Hooks<T>): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Holds app-limited upload keys to their applications on the routes of `scope` that declare
 * `uploadApps` (only those get the hook): another application is 403 before the handler runs
 * (an upload's body is then left unread), and a list without the parameter gets the allowed ids
 * in `request.appLimit`. A `preHandler`, so the value checked is the validated one the handler
 * will use. Register it before the scope's routes.
 */
export function registerAppLimits(
  scope: FastifyInstance,
  appIdsOf: (codes: readonly string[]) => Promise<number[]>,
): void {
  const check: preHandlerAsyncHookHandler = async (request, reply) => {
    const limit = request.routeOptions.config.access?.uploadApps;
    const credential = request.credential;
    if (!limit || !credential || sharesCachedAnswers(credential)) return;
    const source = limit.in === 'params' ? request.params : request.query;
    const raw = (source as Record<string, unknown> | undefined)?.[limit.query];
    // Path parameters arrive as text (`/apps/7/...`); the ids they are compared with are numbers.
    const value = limit.in === 'params' && limit.by === 'id' && typeof raw === 'string' ? Number(raw) : raw;
    if (limit.by === 'code') {
      if (typeof value === 'string' && credential.apps.includes(value)) return;
    } else {
      const allowed = await appIdsOf(credential.apps);
      if (value === undefined) {
        request.appLimit = allowed;
        return;
      }
      if (typeof value === 'number' && allowed.includes(value)) return;
    }
    const body = request.body as Readable | undefined;
    if (typeof body?.resume === 'function') body.resume();
    return sendForbidden(request, reply, credential, 'requests for this application');
  };
  scope.addHook('onRoute', (route: RouteOptions) => {
    const access = route.config?.access;
    if (access?.uploadApps === undefined) return;
    route.preHandler = [...asArray(route.preHandler as Hooks<preHandlerAsyncHookHandler>), check];
  });
}
