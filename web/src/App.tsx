import { type ComponentType, useEffect, useState } from 'react';
import { ClientProvider, onUnauthorized, storedKey, storeKey } from './api/client';
import { Login } from './Login';
import { Link, navigate, usePath } from './lib/router';
import { ApplicationsPage } from './pages/Applications';
import { AppReportPage } from './pages/insight/AppReport';
import { NotFoundPage } from './pages/NotFound';
import { NotificationsPage } from './pages/Notifications';
import { OverviewPage } from './pages/Overview';
import { PullRequestsPage } from './pages/PullRequests';
import { QuarantinePage } from './pages/Quarantine';
import { SettingsPage } from './pages/Settings';
import { StatusPage } from './pages/Status';
import { TicketsPage } from './pages/Tickets';
import { TodosPage } from './pages/Todos';
import { ShellProvider, useShell } from './shell';

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
      <ShellProvider key={key}>
        <Layout
          onSignOut={() => {
            storeKey(null);
            setKey(null);
            setNotice('You are signed out. The key was removed from this browser.');
            navigate('/', true);
          }}
        />
      </ShellProvider>
    </ClientProvider>
  );
}

function Layout({ onSignOut }: { onSignOut: () => void }) {
  const path = usePath();
  const { unread } = useShell();
  const { section, Page } = route(path);

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
                <li key={to}>
                  <Link to={to} aria-current={to === section ? 'page' : undefined} className="nav-link">
                    {label}
                    {to === '/notifications' && unread !== undefined && unread > 0 && (
                      <span className="count" aria-label={`${unread} unread`}>
                        {unread > 99 ? '99+' : unread}
                      </span>
                    )}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <button type="button" className="button button-ghost signout" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        <Page />
      </main>
    </>
  );
}
