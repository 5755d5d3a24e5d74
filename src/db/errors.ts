/** True for a unique-constraint violation on either dialect (SQLite and PostgreSQL report differently). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Largest value of the integer id columns; larger path ids cannot exist, so lookups short-cut. */
export const MAX_STORED_ID = 2_147_483_647;

export const isStorableId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_STORED_ID;

/** Booleans go in as 0/1 and come back as 0/1 (SQLite) or true/false (PostgreSQL). */
export const toDbBoolean = (value: boolean): number => (value ? 1 : 0);
export const fromDbBoolean = (value: boolean | number): boolean => value === true || value === 1;

export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** COUNT(*) is a bigint string on PostgreSQL and a number on SQLite. */
export const toCount = (value: string | number | bigint | undefined): number => Number(value ?? 0);

// Network failures reaching the database server (Node's socket error codes).
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

// PostgreSQL SQLSTATEs of a server that is down, restarting or refusing connections: the whole
// class 08 (connection exception), admin/crash shutdown, "cannot connect now" while starting,
// and too many connections.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

// Messages node-postgres gives its own connection failures (they carry no code), and the refusal
// of a database closed to new connections for maintenance (a generic SQLSTATE, 55000).
const POSTGRES_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
];

// SQLite: another connection holds the lock past busy_timeout, or the file cannot be opened.
const SQLITE_UNAVAILABLE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_CANTOPEN'];

function isUnavailableCause(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
      return true;
    }
    if (SQLITE_UNAVAILABLE_PREFIXES.some((prefix) => code.startsWith(prefix))) return true;
  }
  const message = (error as { message?: unknown }).message;
  if (typeof message !== 'string') return false;
  return (
    POSTGRES_CONNECTION_MESSAGES.some((text) => message.includes(text)) ||
    message === 'The database connection is not open' ||
    message.includes('is not currently accepting connections')
  );
}

/**
 * True when a query failed because the database could not be reached or is momentarily locked,
 * not because of the query: such a failure is answered 503 SERVICE_UNAVAILABLE (try again), not
 * 500. Looks through wrapped causes and the several attempts of a connection (AggregateError).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const pending: unknown[] = [error];
  const seen = new Set<unknown>();
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (isUnavailableCause(current)) return true;
    pending.push((current as { cause?: unknown }).cause);
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner)) pending.push(...(inner as unknown[]));
  }
  return false;
}
