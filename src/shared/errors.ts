/** Closed list of validation detail codes (docs/contract-notes.md, "Validation"). */
export type DetailCode =
  | 'REQUIRED_FIELD'
  | 'EMPTY_FIELD'
  | 'INVALID_TYPE'
  | 'INVALID_FORMAT'
  | 'STRING_TOO_LONG'
  | 'INVALID_URL'
  | 'INVALID_ID'
  | 'INVALID_VALUE'
  | 'INVALID_JSON'
  | 'EMPTY_BODY'
  | 'INVALID_CONTENT_TYPE';

export interface ValidationDetail {
  field: string;
  message: string;
  code: DetailCode;
  value?: unknown;
}

/**
 * Base of every error the service raises on purpose. The single error handler turns it into the
 * envelope; anything that is not an AppError becomes a 500 that reveals nothing.
 */
export abstract class AppError extends Error {
  abstract readonly statusCode: number;
  abstract readonly code: string;
  readonly details?: unknown;

  constructor(message: string, details?: unknown) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

export class ValidationError extends AppError {
  readonly statusCode = 400;
  readonly code = 'VALIDATION_ERROR';
  declare readonly details: ValidationDetail[];

  constructor(details: ValidationDetail[], message = 'Request validation failed') {
    super(message, details);
  }

  static single(field: string, code: DetailCode, message: string, value?: unknown) {
    const detail: ValidationDetail = { field, message, code };
    if (value !== undefined) detail.value = value;
    return new ValidationError([detail]);
  }
}

/** A valid key whose scope does not cover the request (details name the scope). */
export class ForbiddenError extends AppError {
  readonly statusCode = 403;
  readonly code = 'FORBIDDEN';
}

export class NotFoundError extends AppError {
  readonly statusCode = 404;
  readonly code = 'NOT_FOUND';
}

export class ConflictError extends AppError {
  readonly statusCode = 409;
  readonly code = 'CONFLICT';
}

export class UnprocessableEntityError extends AppError {
  readonly statusCode = 422;
  readonly code = 'UNPROCESSABLE_ENTITY';
}

export class PayloadTooLargeError extends AppError {
  readonly statusCode = 413;
  readonly code = 'PAYLOAD_TOO_LARGE';
}

export class TooManyRequestsError extends AppError {
  readonly statusCode = 429;
  readonly code = 'TOO_MANY_REQUESTS';

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, { retryAfter: retryAfterSeconds });
  }
}

/** GitHub, Jira, CircleCI or the test-results service failed or timed out. */
export class ExternalServiceError extends AppError {
  readonly statusCode = 502;
  readonly code = 'EXTERNAL_SERVICE_ERROR';

  constructor(
    readonly service: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** A local dependency the request needs (database, broker) is down. */
export class ServiceUnavailableError extends AppError {
  readonly statusCode = 503;
  readonly code = 'SERVICE_UNAVAILABLE';
}
