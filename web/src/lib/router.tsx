import {
  type AnchorHTMLAttributes,
  type MouseEvent,
  useCallback,
  useEffect,
  useSyncExternalStore,
} from 'react';

/*
 * Six flat pages need no routing library: the path lives in the History API and components subscribe
 * to it. This keeps ~20 KB of router out of the bundle.
 */
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** The query string of the address, e.g. `?date=2025-03-01` ('' when none). */
export function useSearch(): string {
  return useSyncExternalStore(subscribe, () => window.location.search);
}

/**
 * A piece of page state kept in the address (`?name=value`), so that reload and a shared link keep it.
 * `fallback` is used when the parameter is absent; setting the fallback (or '') removes it.
 */
export function useQueryParam(name: string, fallback = ''): [string, (value: string) => void] {
  const search = useSearch();
  const value = new URLSearchParams(search).get(name) ?? fallback;
  const set = useCallback(
    (next: string) => {
      const params = new URLSearchParams(window.location.search);
      if (next === '' || next === fallback) params.delete(name);
      else params.set(name, next);
      const query = params.toString();
      // Replaced, not pushed: changing a filter should not fill the back button's history.
      navigate(window.location.pathname + (query ? `?${query}` : ''), true);
    },
    [name, fallback],
  );
  return [value, set];
}

export function navigate(to: string, replace = false): void {
  if (to === window.location.pathname + window.location.search) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  emit();
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
      return;
    }
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}

/** Sets the document title, and moves focus to the page heading after a navigation (screen readers). */
export function usePageTitle(title: string, headingId = 'page-title'): void {
  useEffect(() => {
    document.title = `${title} · Test dashboard`;
    const heading = document.getElementById(headingId);
    if (heading && document.activeElement !== heading && document.body.dataset.navigated === 'true') {
      heading.focus();
    }
    document.body.dataset.navigated = 'true';
  }, [title, headingId]);
}
