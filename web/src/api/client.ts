import { createContext, createElement, type ReactNode, useContext, useMemo } from 'react';
import { DashboardClient } from '../../../src/client/index.js';
import { reportAnswer, reportLost } from '../lib/connection';

/*
 * The UI talks to the API through the same typed client that scripts use (src/client): its transport
 * is plain fetch, and it imports only types from the server's schema files, so it runs in the
 * browser. Pages get it with `useClient()`; nothing else in web/ builds requests by hand.
 */

const KEY_STORAGE = 'dashboard.apiKey';

export function storedKey(): string | null {
  try {
    return localStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

export function storeKey(key: string | null): void {
  try {
    if (key === null) localStorage.removeItem(KEY_STORAGE);
    else localStorage.setItem(KEY_STORAGE, key);
  } catch {
    // Private modes may refuse storage; the key then lives only for this page.
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when a request that carried the key answers 401: the key in the browser is no longer good. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function carriesKey(init: RequestInit | undefined): boolean {
  const headers = init?.headers;
  if (!headers) return false;
  if (headers instanceof Headers) return headers.has('x-api-key');
  if (Array.isArray(headers)) return headers.some(([name]) => name.toLowerCase() === 'x-api-key');
  return 'x-api-key' in headers;
}

/**
 * fetch as the browser UI wants it: GETs always revalidate with the browser cache (so a repeated
 * poll goes out with If-None-Match and a 304 costs no body), and a refused key signs the user out.
 */
const browserFetch: typeof fetch = async (input, init) => {
  const method = init?.method ?? 'GET';
  let response: Response;
  try {
    response = await fetch(input, method === 'GET' ? { ...init, cache: 'no-cache' } : init);
  } catch (error) {
    // A cancelled request says nothing about the server; a refused or dropped one does.
    if (!(error instanceof DOMException && error.name === 'AbortError')) reportLost();
    throw error;
  }
  if (SERVER_FAILURES.has(response.status)) void reportServerFailure(response.clone());
  else reportAnswer();
  if (response.status === 401 && carriesKey(init)) unauthorizedListeners.forEach((listener) => listener());
  return response;
};

/**
 * Answers that mean the dashboard itself is in trouble (502 is left out: the API uses it for an
 * external service that failed, which the page shows where it matters).
 */
const SERVER_FAILURES = new Set([500, 503, 504]);

async function reportServerFailure(response: Response): Promise<void> {
  let said = '';
  try {
    const body = (await response.json()) as { error?: { message?: unknown }; message?: unknown };
    const message = body.error?.message ?? body.message;
    if (typeof message === 'string') said = message.replace(/\.$/, '');
  } catch {
    // Not the API's envelope (a proxy's page): the status is all there is.
  }
  reportLost(`The dashboard server answered ${response.status}${said ? `: ${said}` : ''}.`);
}

/** A client for this page's origin. Without a key it can still call the public endpoints. */
export function createBrowserClient(apiKey: string | null): DashboardClient {
  return new DashboardClient({
    baseUrl: window.location.origin,
    apiKey: apiKey ?? '',
    fetch: browserFetch,
    // A person is waiting: one quick retry of a failed read, and a long Retry-After is shown, not waited.
    retries: 1,
    retryBaseDelayMs: 300,
    maxRetryDelayMs: 1500,
    timeoutMs: 20_000,
  });
}

const ClientContext = createContext<DashboardClient | undefined>(undefined);

/** Makes the signed-in client available to every page below it. */
export function ClientProvider({ apiKey, children }: { apiKey: string; children: ReactNode }) {
  const client = useMemo(() => createBrowserClient(apiKey), [apiKey]);
  return createElement(ClientContext.Provider, { value: client }, children);
}

/** The typed API client of the signed-in user: `const client = useClient(); client.apps.list()`. */
export function useClient(): DashboardClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient() needs a <ClientProvider> above it');
  return client;
}
