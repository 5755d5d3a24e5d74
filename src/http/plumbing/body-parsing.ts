import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import secureJson from 'secure-json-parse';
import { ValidationError } from '../../shared/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The handler checks the body itself (and answers in its own shape); skip EMPTY_BODY. */
    ownsBodyValidation?: boolean;
    /** The body schema describes an optional body: no body at all is valid (no EMPTY_BODY). */
    bodyOptional?: boolean;
  }
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * JSON is the only accepted body type. The parser is replaced so that an empty body (some clients
 * send `Content-Type: application/json` on every request, bodiless DELETEs included) reaches the
 * route as "no body" instead of a parse error, and so prototype-poisoning keys are refused.
 */
export function registerBodyParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      try {
        done(null, secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }));
      } catch {
        done(ValidationError.single('body', 'INVALID_JSON', 'Request body is not valid JSON'), undefined);
      }
    },
  );

  // A body-requiring route with no body at all (or a JSON `null`) is EMPTY_BODY, reported before
  // schema validation would describe the same thing as a type error. Whether a route requires a
  // body is known when it is registered, so the check is attached to those routes only, ahead of
  // their own preValidation hooks: other requests skip it, and none reads its route's options
  // (`request.routeOptions` builds a new object on each read). Callback style: an async hook
  // costs a promise and a microtask turn each time.
  const requireBody: preValidationHookHandler = (request, _reply, done) => {
    const missing = request.body === undefined || request.body === null;
    done(missing ? ValidationError.single('body', 'EMPTY_BODY', 'Request body is required') : undefined);
  };
  app.addHook('onRoute', (route) => {
    const { ownsBodyValidation, bodyOptional } = route.config ?? {};
    if (route.schema?.body === undefined || ownsBodyValidation === true || bodyOptional === true) return;
    const own = route.preValidation;
    route.preValidation = [requireBody, ...(own === undefined ? [] : Array.isArray(own) ? own : [own])];
  });
}
