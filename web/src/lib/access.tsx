import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import type { KeyScope } from '../../../src/client/index.js';
import { useClient } from '../api/client';
import '../styles/access.css';

/*
 * What the signed-in key may do, for every page: one context, so a page hides its changing buttons
 * with `useCanChange()` (or `<IfCanChange>`) instead of knowing about scopes. The server refuses
 * anything outside the scope whatever the page shows; this only keeps buttons that would fail
 * out of sight.
 */

const ACCESS_STORAGE = 'dashboard.keyAccess';

interface KnownAccess {
  scope: KeyScope;
  name: string | null;
}

export interface Access {
  /** Undefined until known (a key saved before keys had scopes is asked about once). */
  scope: KeyScope | undefined;
  name: string | null;
  /** False for a read key: pages show no create, edit, delete, quarantine, regenerate or run. */
  canChange: boolean;
  /** Known to be an admin key (the API keys of Settings). */
  isAdmin: boolean;
}

/** The first 12 characters tell whether the stored scope belongs to the stored key. */
const markOf = (apiKey: string) => apiKey.slice(0, 12);

/** Remembers what sign-in learnt about the key (`POST /api/auth/validate`). */
export function storeAccess(apiKey: string, access: KnownAccess): void {
  try {
    localStorage.setItem(ACCESS_STORAGE, JSON.stringify({ mark: markOf(apiKey), ...access }));
  } catch {
    // Private modes may refuse storage; the scope is then asked again on the next visit.
  }
}

export function forgetAccess(): void {
  try {
    localStorage.removeItem(ACCESS_STORAGE);
  } catch {
    // Nothing was stored.
  }
}

function storedAccess(apiKey: string): KnownAccess | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(ACCESS_STORAGE) ?? 'null') as
      (KnownAccess & { mark?: string }) | null;
    return stored?.mark === markOf(apiKey) ? { scope: stored.scope, name: stored.name } : undefined;
  } catch {
    return undefined;
  }
}

const AccessContext = createContext<Access>({
  scope: undefined,
  name: null,
  canChange: true,
  isAdmin: false,
});

/** Provides the signed-in key's access to the pages below; asks the server once if it is not known. */
export function AccessProvider({ apiKey, children }: { apiKey: string; children: ReactNode }) {
  const client = useClient();
  const [known, setKnown] = useState(() => storedAccess(apiKey));
  useEffect(() => {
    if (known) return;
    let live = true;
    client.auth.validate(apiKey).then(
      (answer) => {
        if (!answer.valid || !('scope' in answer)) return;
        const access = { scope: answer.scope, name: answer.name };
        storeAccess(apiKey, access);
        if (live) setKnown(access);
      },
      // Unanswered: the pages' own requests say what is wrong (and a refused key signs out).
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, apiKey, known]);
  const value = useMemo<Access>(
    () => ({
      scope: known?.scope,
      name: known?.name ?? null,
      canChange: known === undefined || known.scope === 'admin',
      isAdmin: known?.scope === 'admin',
    }),
    [known],
  );
  return <AccessContext.Provider value={value}>{children}</AccessContext.Provider>;
}

export const useAccess = (): Access => useContext(AccessContext);

/** Whether the page may offer buttons that change something. */
export const useCanChange = (): boolean => useContext(AccessContext).canChange;

/** Renders its children only for keys that may change things (`fallback` otherwise). */
export function IfCanChange({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return <>{useCanChange() ? children : fallback}</>;
}

/** The short note every page shows to a read key. */
export function ReadOnlyNote() {
  const { scope, name } = useAccess();
  if (scope !== 'read') return null;
  return (
    <p className="readonly-note" role="note">
      <strong>Read-only key</strong>
      {name ? ` (${name})` : ''}: you can look at everything here, but not change it.
    </p>
  );
}
