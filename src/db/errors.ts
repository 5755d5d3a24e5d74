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
