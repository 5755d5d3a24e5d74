import { useEffect, useSyncExternalStore } from 'react';

/*
 * Whether the dashboard server answers, for the whole page at once. The browser client reports every
 * answer here: a refused connection, a time-out or a 5xx of the dashboard itself marks the connection
 * lost, and from then on one loop probes `/health` with back-off until the server answers again.
 * Pages keep what they show and reload when the connection comes back (`useOnReconnect`), so one bar
 * speaks for the page instead of an "Offline" per section.
 */

export interface ConnectionState {
  lost: boolean;
  /** What to tell the user: the server's own message for a 5xx, or that it does not answer. */
  reason: string;
  /** When the next probe goes out (epoch ms), for the countdown. */
  nextRetryAt: number;
  /** The browser itself says it has no network. */
  browserOffline: boolean;
}

const NOT_ANSWERING = 'The dashboard server is not answering.';
/** Probes back off from 1 s, capped so that a recovered server is noticed within 5 s. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

let state: ConnectionState = { lost: false, reason: '', nextRetryAt: 0, browserOffline: false };
let attempt = 0;
let recoveredAt = 0;
let timer: number | undefined;
/**
 * A loss soon after a recovery goes on with the back-off where it was: `/health` can answer while
 * one dependency of the API (the broker, say) still fails its requests.
 */
const RELAPSE_MS = 10_000;
const listeners = new Set<() => void>();
const reconnectListeners = new Set<() => void>();

function set(next: Partial<ConnectionState>): void {
  state = { ...state, ...next };
  listeners.forEach((listener) => listener());
}

const browserOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

function scheduleProbe(): void {
  window.clearTimeout(timer);
  const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!;
  attempt += 1;
  set({ nextRetryAt: Date.now() + delay, browserOffline: browserOffline() });
  timer = window.setTimeout(probe, delay);
}

async function probe(): Promise<void> {
  try {
    const response = await fetch('/health', { cache: 'no-store' });
    if (response.status < 500) {
      reportAnswer();
      return;
    }
  } catch {
    // Still not answering: try again later.
  }
  if (state.lost) scheduleProbe();
}

/** A request got no answer, or the server answered with a failure of its own (`reason`). */
export function reportLost(reason: string = NOT_ANSWERING): void {
  const wasLost = state.lost;
  set({ lost: true, reason });
  if (!wasLost) {
    if (Date.now() - recoveredAt > RELAPSE_MS) attempt = 0;
    scheduleProbe();
  }
}

/** The server answered: if the connection was lost, it is back, and the pages reload. */
export function reportAnswer(): void {
  if (!state.lost) return;
  window.clearTimeout(timer);
  recoveredAt = Date.now();
  set({ lost: false, reason: '', nextRetryAt: 0, browserOffline: false });
  reconnectListeners.forEach((listener) => listener());
}

/** Probes at once (the "Retry now" button, or the browser coming back online). */
export function retryNow(): void {
  if (!state.lost) return;
  window.clearTimeout(timer);
  void probe();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useConnection(): ConnectionState {
  return useSyncExternalStore(subscribe, () => state);
}

/** Calls `reload` when the connection comes back after being lost. */
export function useOnReconnect(reload: () => void): void {
  useEffect(() => {
    reconnectListeners.add(reload);
    return () => {
      reconnectListeners.delete(reload);
    };
  }, [reload]);
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', retryNow);
  window.addEventListener('offline', () => set({ browserOffline: true }));
}
