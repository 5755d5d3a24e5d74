import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { DashboardClient } from '../../src/client/index.js';
import { useClient } from './api/client';

interface Toast {
  id: number;
  text: string;
  tone: 'good' | 'bad';
}

interface Shell {
  notify: (text: string, tone?: 'good' | 'bad') => void;
  unread: number | undefined;
  refreshUnread: () => void;
}

const ShellContext = createContext<Shell>({
  notify: () => undefined,
  unread: undefined,
  refreshUnread: () => undefined,
});

export const useShell = () => useContext(ShellContext);

const UNREAD_POLL_MS = 30_000;

async function fetchUnread(client: DashboardClient): Promise<number> {
  const page = await client.notifications.list({ isRead: false, limit: 1 });
  return page.pagination?.total ?? page.data.length;
}

/** Toasts (announced politely to screen readers) and the unread-notification count of the navigation. */
export function ShellProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [unread, setUnread] = useState<number>();
  const nextId = useRef(1);
  const client = useClient();

  const notify = useCallback((text: string, tone: 'good' | 'bad' = 'good') => {
    const id = nextId.current++;
    setToasts((list) => [...list.slice(-2), { id, text, tone }]);
    window.setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), 5000);
  }, []);

  const refreshUnread = useCallback(() => {
    fetchUnread(client).then(setUnread, () => setUnread(undefined));
  }, [client]);

  // The count follows new notifications within the poll interval, and at once when the tab regains focus.
  useEffect(() => {
    refreshUnread();
    const timer = window.setInterval(refreshUnread, UNREAD_POLL_MS);
    window.addEventListener('focus', refreshUnread);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', refreshUnread);
    };
  }, [refreshUnread]);

  return (
    <ShellContext.Provider value={{ notify, unread, refreshUnread }}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`}>
            {toast.text}
          </div>
        ))}
      </div>
    </ShellContext.Provider>
  );
}
