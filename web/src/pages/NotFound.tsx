import { Link, usePageTitle, usePath } from '../lib/router';

/** Any address the UI does not know: say so, and offer the way back instead of a blank Overview. */
export function NotFoundPage() {
  usePageTitle('Page not found');
  const path = usePath();
  return (
    <div className="not-found">
      <h1 id="page-title" tabIndex={-1}>
        Page not found
      </h1>
      <p className="muted">
        Nothing lives at <code>{path}</code>. The link may be old, or the address mistyped.
      </p>
      <p>
        <Link to="/" className="button button-primary">
          Go to the Overview
        </Link>
      </p>
    </div>
  );
}
