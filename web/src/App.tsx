import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { ClientProvider, onUnauthorized, storedKey, storeKey } from './api/client';
import { ConnectionBar } from './components/ConnectionBar';
import { AccessProvider, forgetAccess, ReadOnlyNote } from './lib/access';
import { Spinner } from './components/ui';
import { useConnection } from './lib/connection';
import { Login } from './Login';
import { Link, navigate, usePath } from './lib/router';
import { NotFoundPage } from './pages/NotFound';
import { OverviewPage } from './pages/Overview';
import { ShellProvider, useShell } from './shell';

/*
 * The Overview is where people land, so it is in the first bundle; every other page is fetched when
 * it is first opened, which keeps the cold load small.
 */
const ApplicationsPage = lazy(() =>
  import('./pages/Applications').then((m) => ({ default: m.ApplicationsPage })),
);
const AppReportPage = lazy(() =>
  import('./pages/insight/AppReportPage').then((m) => ({ default: m.AppReportPage })),
);
const RunPage = lazy(() => import('./pages/RunPage').then((m) => ({ default: m.RunPage })));
const TestPage = lazy(() => import('./pages/tests/TestPage').then((m) => ({ default: m.TestPage })));
const NotificationsPage = lazy(() =>
  import('./pages/Notifications').then((m) => ({ default: m.NotificationsPage })),
);
const PullRequestsPage = lazy(() =>
  import('./pages/PullRequests').then((m) => ({ default: m.PullRequestsPage })),
);
const QuarantinePage = lazy(() => import('./pages/Quarantine').then((m) => ({ default: m.QuarantinePage })));
const SettingsPage = lazy(() => import('./pages/Settings').then((m) => ({ default: m.SettingsPage })));
const StatusPage = lazy(() => import('./pages/Status').then((m) => ({ default: m.StatusPage })));
const TicketsPage = lazy(() => import('./pages/Tickets').then((m) => ({ default: m.TicketsPage })));
const TodosPage = lazy(() => import('./pages/Todos').then((m) => ({ default: m.TodosPage })));

/** The navigation entries a phone shows in its one row; the others are in the "More" menu. */
const PHONE_ROW = new Set(['/', '/apps', '/notifications']);

const PAGES = [
  { path: '/', label: 'Overview', Page: OverviewPage },
  { path: '/apps', label: 'Applications', Page: ApplicationsPage },
  { path: '/pull-requests', label: 'Pull requests', Page: PullRequestsPage },
  { path: '/tickets', label: 'Tickets', Page: TicketsPage },
  { path: '/todos', label: 'To-dos', Page: TodosPage },
  { path: '/quarantine', label: 'Quarantine', Page: QuarantinePage },
  { path: '/notifications', label: 'Notifications', Page: NotificationsPage },
  { path: '/status', label: 'Status', Page: StatusPage },
  { path: '/settings', label: 'Settings', Page: SettingsPage },
] as const;

/** Pages reached by links, not by the navigation; `section` is the navigation entry they belong to. */
const LINKED_PAGES: { pattern: RegExp; section: string; Page: ComponentType }[] = [
  { pattern: /^\/apps\/\d+\/report$/, section: '/', Page: AppReportPage },
  { pattern: /^\/apps\/\d+\/runs\/\d+$/, section: '/apps', Page: RunPage },
  { pattern: /^\/apps\/\d+\/tests\/[^/]+$/, section: '/', Page: TestPage },
];

/** The page for a path and the navigation entry to mark current; unknown paths get "not found". */
function route(path: string): { section: string | undefined; Page: ComponentType } {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const page = PAGES.find((p) => p.path === normalized);
  if (page) return { section: page.path, Page: page.Page };
  const linked = LINKED_PAGES.find((p) => p.pattern.test(normalized));
  if (linked) return { section: linked.section, Page: linked.Page };
  return { section: undefined, Page: NotFoundPage };
}

export function App() {
  const [key, setKey] = useState(storedKey);
  const [notice, setNotice] = useState<string>();

  useEffect(
    () =>
      onUnauthorized(() => {
        storeKey(null);
        forgetAccess();
        setKey(null);
        setNotice('The saved API key is no longer accepted. Enter the current key.');
      }),
    [],
  );

  if (!key) {
    return (
      <Login
        notice={notice}
        onSignedIn={(k) => {
          setNotice(undefined);
          setKey(k);
        }}
      />
    );
  }
  return (
    <ClientProvider apiKey={key}>
      <AccessProvider key={key} apiKey={key}>
        <ShellProvider key={key}>
          <Layout
            onSignOut={() => {
              storeKey(null);
              forgetAccess();
              setKey(null);
              setNotice('You are signed out. The key was removed from this browser.');
              navigate('/', true);
            }}
          />
        </ShellProvider>
      </AccessProvider>
    </ClientProvider>
  );
}

function NavLabel({ to, label, unread }: { to: string; label: string; unread: number | undefined }) {
  if (to === '/notifications') {
    // On phones a bell stands for the word, which stays the link's name for screen readers.
    return (
      <>
        <svg className="nav-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path
            d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
        <span className="nav-text">{label}</span>
        {unread !== undefined && unread > 0 && (
          <span className="count" aria-label={`${unread} unread`}>
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </>
    );
  }
  return (
    <>
      {label}
      {to === '/notifications' && unread !== undefined && unread > 0 && (
        <span className="count" aria-label={`${unread} unread`}>
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </>
  );
}

/** On phones: the entries that do not fit in the one row, and signing out. */
function PhoneMenu({ section, onSignOut }: { section: string | undefined; onSignOut: () => void }) {
  const path = usePath();
  const [open, setOpen] = useState(false);
  // A navigation closes the menu.
  useEffect(() => setOpen(false), [path]);
  // On a page of the menu, the menu's button names that page, so the row still shows where one is.
  const current = PAGES.find((p) => p.path === section && !PHONE_ROW.has(p.path));
  return (
    <details className="nav-menu" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className={current ? 'nav-link nav-menu-current' : 'nav-link'}>
        {current ? (
          <>
            {current.label}
            <span className="sr-only"> (more pages)</span>
          </>
        ) : (
          'More'
        )}
      </summary>
      <ul>
        {PAGES.filter((p) => !PHONE_ROW.has(p.path)).map(({ path: to, label }) => (
          <li key={to}>
            <Link to={to} aria-current={to === section ? 'page' : undefined} className="nav-link">
              {label}
            </Link>
          </li>
        ))}
        <li>
          <button type="button" className="nav-link nav-signout" onClick={onSignOut}>
            Sign out
          </button>
        </li>
      </ul>
    </details>
  );
}

function Layout({ onSignOut }: { onSignOut: () => void }) {
  const path = usePath();
  const { unread } = useShell();
  const { section, Page } = route(path);
  const connectionLost = useConnection().lost;

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link to="/" className="brand">
            <span className="brand-mark" aria-hidden="true">
              ✓
            </span>
            <span>Test dashboard</span>
          </Link>
          <nav aria-label="Main" className="nav">
            <ul>
              {PAGES.map(({ path: to, label }) => (
                <li key={to} className={PHONE_ROW.has(to) ? undefined : 'nav-secondary'}>
                  <Link to={to} aria-current={to === section ? 'page' : undefined} className="nav-link">
                    <NavLabel to={to} label={label} unread={unread} />
                  </Link>
                </li>
              ))}
            </ul>
            <PhoneMenu section={section} onSignOut={onSignOut} />
          </nav>
          <button type="button" className="button button-ghost signout" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <ConnectionBar />
      <main id="main" className={connectionLost ? 'page is-stale' : 'page'} tabIndex={-1}>
        <ReadOnlyNote />
        <Suspense fallback={<Spinner label="Loading the page…" />}>
          <Page />
        </Suspense>
      </main>
    </>
  );
}
