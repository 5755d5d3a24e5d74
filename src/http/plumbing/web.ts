import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendRouteNotFound } from './error-handler.js';

export interface WebOptions {
  /** Folder holding the built UI (`index.html` + `assets/`); defaults to `<repo>/web/dist`. */
  root?: string;
  /** Answers what is neither an asset nor an HTML navigation (default: the 404 envelope). */
  otherwise?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>;
}

/**
 * Paths owned by the server: an HTML navigation there gets the 404 envelope, not the page. This
 * is presentation only; no access decision depends on it (protected routes are answered by their
 * own scopes before any not-found handling).
 */
const RESERVED_PREFIXES = ['/api', '/health', '/docs', '/openapi.json', '/metrics'];
const IMMUTABLE = 'public, max-age=31536000, immutable';

const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dashboard: web UI not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>The web UI has not been built</h1>
<p>The API is running. To get the dashboard UI, build it once and reload this page:</p>
<pre><code>npm run build:web</code></pre>
<p>The API itself is documented at <a href="/docs">/docs</a>.</p>
</body></html>
`;

/** Walks up from this module (src/http/plumbing or its built copy under dist/) to the checkout holding `web/index.html`. */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'web', 'index.html'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export function defaultWebRoot(): string {
  return join(findProjectRoot(), 'web', 'dist');
}

function isReserved(path: string): boolean {
  return RESERVED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

/**
 * Serves the single-page UI from the same process: hashed assets with a year-long immutable cache,
 * `index.html` (never cached) at `/`, and, as the root not-found handler, the page again for any
 * other HTML navigation outside the server's own paths, so that deep links such as `/apps`
 * survive a reload. A not-found handler (rather than a `/*` route) never competes with the
 * routes and not-found handlers of the protected scopes. Must be called on the root instance.
 */
export async function registerWebUi(app: FastifyInstance, options: WebOptions = {}): Promise<void> {
  const root = options.root ?? defaultWebRoot();
  const indexPath = join(root, 'index.html');
  // Read per request when the build is missing so a later `npm run build:web` needs no restart.
  let indexHtml: string | undefined = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : undefined;
  const currentIndex = (): string | undefined => {
    if (indexHtml === undefined && existsSync(indexPath)) indexHtml = readFileSync(indexPath, 'utf8');
    return indexHtml;
  };
  const otherwise = options.otherwise ?? sendRouteNotFound;

  await app.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: '/assets/',
    // Vite names every file under assets/ after its content hash, so a file never changes.
    cacheControl: false,
    // The build writes `.br` and `.gz` beside each text asset (web/precompress.ts): a client that
    // accepts one gets it as is, with its Content-Encoding; nothing is compressed per request.
    preCompressed: true,
    setHeaders: (res) => {
      res.setHeader('cache-control', IMMUTABLE);
      res.setHeader('vary', 'accept-encoding');
    },
    index: false,
    list: false,
  });

  const sendIndex = (reply: FastifyReply): FastifyReply => {
    const html = currentIndex();
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html ?? MISSING_BUILD_PAGE);
  };

  app.get('/', { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const navigation = (request.method === 'GET' || request.method === 'HEAD') && wantsHtml(request);
    if (navigation && !isReserved(path) && !path.startsWith('/assets/')) return sendIndex(reply);
    return otherwise(request, reply);
  });
}
