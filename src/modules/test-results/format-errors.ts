import { ValidationError, type ValidationDetail } from '../../shared/errors.js';

/** The upload is not a report this service reads (malformed, or of no known shape). */
export function invalidFormat(message: string, position?: { line: number; column: number }): ValidationError {
  const detail: ValidationDetail & { line?: number; column?: number } = {
    field: 'body',
    code: 'INVALID_FORMAT',
    message: position ? `Line ${position.line}, column ${position.column}: ${message}` : message,
  };
  if (position) {
    detail.line = position.line;
    detail.column = position.column;
  }
  return new ValidationError([detail], 'The uploaded report could not be read');
}
