/**
 * Who a request speaks for, as the key guard found out: the scope of its key and, for a key made
 * through `/api/keys`, its id, name and applications. Here, below HTTP and the modules, because
 * the guard decides it and the keys module produces it.
 */
export const KEY_SCOPES = ['admin', 'read', 'upload'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export interface Credential {
  /** Null for API_SECURITY_KEY. */
  readonly id: number | null;
  /** Null for API_SECURITY_KEY. */
  readonly name: string | null;
  readonly scope: KeyScope;
  /** Application codes an upload key is limited to; empty means every application. */
  readonly apps: readonly string[];
}

/** API_SECURITY_KEY: the contract's admin key. */
export const SERVICE_KEY_CREDENTIAL: Credential = Object.freeze({
  id: null,
  name: null,
  scope: 'admin',
  apps: Object.freeze([]),
});

/** What looking a presented key up found. */
export type KeyLookup =
  | { readonly kind: 'valid'; readonly credential: Credential }
  /** A key that exists but was revoked or has expired: refused, but not a guess. */
  | { readonly kind: 'inactive' }
  | { readonly kind: 'unknown' };

/**
 * Finds the key a request presents among the keys made through the API. Answers at once from
 * memory when it can (every request of a scope asks), through a promise otherwise.
 */
export interface KeyResolver {
  resolve(presented: string): KeyLookup | Promise<KeyLookup>;
  /** Records that the key was used (throttled to one write a minute per key). */
  used(credential: Credential): void;
}
