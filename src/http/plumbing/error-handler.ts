import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isBrokerUnavailable } from '../../broker/broker-errors.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import {
  AppError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  TooManyRequestsError,
  ValidationError,
} from '../../shared/errors.js';
import { toValidationError } from './validation.js';

export interface ErrorEnvelope {
  success: false;
  error: {
    message: string;
    code: string;
    statusCode: number;
    details?: unknown;
    timestamp: string;
    path: string;
    method: string;
    requestId: string;
  };
}

/** Fastify's own request errors, translated into the service's typed errors. */
function translateFastifyError(error: FastifyError, request: FastifyRequest): AppError | undefined {
  if (error.validation) {
    return toValidationError(
      error.validation,
      error.validationContext,
      inputOf(request, error.validationContext),
    );
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return ValidationError.single(
        'content-type',
        'INVALID_CONTENT_TYPE',
        'Content-Type must be application/json',
        request.headers['content-type'] ?? null,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ValidationError.single('body', 'EMPTY_BODY', 'Request body is required');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return ValidationError.single('body', 'INVALID_JSON', 'Request body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError('Request body exceeds the 1 MiB limit');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return ValidationError.single('body', 'INVALID_VALUE', 'Content-Length does not match the body');
    default:
      return undefined;
  }
}

function inputOf(request: FastifyRequest, part: string | undefined): unknown {
  if (part === 'body') return request.body;
  if (part === 'querystring') return request.query;
  if (part === 'params') return request.params;
  if (part === 'headers') return request.headers;
  return undefined;
}

export function buildEnvelope(error: AppError, request: FastifyRequest): ErrorEnvelope {
  return {
    success: false,
    error: {
      message: error.message,
      code: error.code,
      statusCode: error.statusCode,
      ...(error.details !== undefined ? { details: error.details } : {}),
      timestamp: new Date().toISOString(),
      path: request.url.split('?')[0] ?? request.url,
      method: request.method,
      requestId: request.id,
    },
  };
}

class InternalError extends AppError {
  readonly statusCode = 500;
  readonly code = 'INTERNAL_SERVER_ERROR';
}

/** The one place where any thrown error becomes an HTTP answer. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((rawError: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let error: AppError;
    if (rawError instanceof AppError) {
      error = rawError;
    } else {
      const translated = translateFastifyError(rawError, request);
      if (translated) {
        error = translated;
      } else if (isDatabaseUnavailable(rawError)) {
        // A database restarting or locked: the request may succeed later, so say so (503).
        error = new ServiceUnavailableError('The database is unavailable; try again shortly');
      } else if (isBrokerUnavailable(rawError)) {
        // Redis unreachable: routes that need the broker answer 503 while the rest keep working.
        error = new ServiceUnavailableError('The message broker is unavailable; try again shortly');
      } else if (rawError.statusCode && rawError.statusCode >= 400 && rawError.statusCode < 500) {
        error = new (class extends AppError {
          readonly statusCode = rawError.statusCode as number;
          readonly code = 'BAD_REQUEST';
        })(rawError.message);
      } else {
        request.log.error({ err: rawError }, 'unhandled error');
        error = new InternalError('An unexpected error occurred');
      }
    }
    if (error.statusCode >= 500) {
      request.log.error({ err: rawError, code: error.code }, error.message);
    }
    if (error instanceof TooManyRequestsError) {
      void reply.header('retry-after', String(error.retryAfterSeconds));
    }
    return reply.status(error.statusCode).send(buildEnvelope(error, request));
  });
}

/** The 404 envelope of an unknown route; each scope that sets a not-found handler uses it. */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const error = new NotFoundError(`Route ${request.method} ${request.url.split('?')[0]} not found`);
  return reply.status(404).send(buildEnvelope(error, request));
}
