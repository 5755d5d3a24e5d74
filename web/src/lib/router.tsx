import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useSyncExternalStore } from 'react';

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
