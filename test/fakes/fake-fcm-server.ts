import { generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, sendJson } from './fake-http.js';
import type { ServiceAccount } from '../../src/integrations/fcm/fcm-credentials.js';

/**
 * A stand-in for Google's OAuth2 token endpoint and FCM HTTP v1, speaking their protocols over
 * real HTTP on 127.0.0.1 (tests only). The token endpoint checks the RS256 signature and claims
 * of the service-account JWT; the send endpoint checks the bearer token, the project and the
 * message shape, and answers with Google's error bodies.
 */
export interface ForcedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface DeliveredMessage {
  token: string;
  /** The whole request body as received (`{message: {...}}`). */
  body: { message: Record<string, unknown> };
}

export interface FakeFcm {
  /** Value for FCM_BASE_URL. */
  baseUrl: string;
  tokenUri: string;
  serviceAccount: ServiceAccount;
  /** Text of a service-account key file pointing at this server (FCM_SERVICE_ACCOUNT_JSON). */
  serviceAccountJson: string;
  delivered: DeliveredMessage[];
  /** Every request to the send endpoint, retries included. */
  sendRequests: number;
  tokenRequests: number;
  maxInFlight: number;
  /** Tokens answered 404 UNREGISTERED / 400 INVALID_ARGUMENT. */
  unregistered: Set<string>;
  invalid: Set<string>;
  /** Delay before each send answer (makes concurrency observable). */
  latencyMs: number;
  /** The next send requests get these answers, in order, whatever the token. */
  failNext(...responses: ForcedResponse[]): void;
  /** Access tokens issued so far stop being accepted (401), as after a revocation. */
  revokeAccessTokens(): void;
  reset(): void;
  close(): Promise<void>;
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const RESERVED_DATA_KEYS = /^(from|message_type|collapse_key|notification)$|^(google|gcm)/;

export async function startFakeFcm(options: { projectId?: string; tokenLifetimeSeconds?: number } = {}) {
  const projectId = options.projectId ?? 'demo-dashboard';
  const clientEmail = `push@${projectId}.iam.gserviceaccount.com`;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const accessTokens = new Map<string, number>();
  let forced: ForcedResponse[] = [];
  let inFlight = 0;

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(response, 500, { error: { code: 500, status: 'INTERNAL', message: String(error) } });
    });
  });
  server.keepAliveTimeout = 30_000;
  const listening = await listenOnLoopback(server);
  const baseUrl = listening.origin;
  const tokenUri = `${baseUrl}/token`;

  const fake: FakeFcm = {
    baseUrl,
    tokenUri,
    serviceAccount: {
      projectId,
      clientEmail,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      tokenUri,
    },
    serviceAccountJson: '',
    delivered: [],
    sendRequests: 0,
    tokenRequests: 0,
    maxInFlight: 0,
    unregistered: new Set(),
    invalid: new Set(),
    latencyMs: 0,
    failNext: (...responses) => void forced.push(...responses),
    revokeAccessTokens: () => accessTokens.clear(),
    reset() {
      fake.delivered = [];
      fake.sendRequests = 0;
      fake.tokenRequests = 0;
      fake.maxInFlight = 0;
      fake.unregistered.clear();
      fake.invalid.clear();
      fake.latencyMs = 0;
      forced = [];
    },
    close: () => listening.close(),
  };
  fake.serviceAccountJson = JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: randomBytes(8).toString('hex'),
    private_key: fake.serviceAccount.privateKey,
    client_email: clientEmail,
    token_uri: tokenUri,
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    const url = new URL(request.url ?? '/', baseUrl);
    if (request.method === 'POST' && url.pathname === '/token') return issueToken(text, response);
    const match = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(url.pathname);
    if (request.method === 'POST' && match) {
      fake.sendRequests++;
      inFlight++;
      fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
      try {
        if (fake.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.latencyMs));
        answerSend(decodeURIComponent(match[1]!), request.headers.authorization, text, response);
      } finally {
        inFlight--;
      }
      return;
    }
    send(response, 404, { error: { code: 404, status: 'NOT_FOUND', message: 'Not found' } });
  }

  function issueToken(text: string, response: ServerResponse): void {
    fake.tokenRequests++;
    const form = new URLSearchParams(text);
    const problem =
      form.get('grant_type') !== JWT_BEARER
        ? 'unsupported grant_type'
        : checkAssertion(form.get('assertion'));
    if (problem) return send(response, 400, { error: 'invalid_grant', error_description: problem });
    const accessToken = `ya29.fake-${randomBytes(16).toString('hex')}`;
    const lifetime = options.tokenLifetimeSeconds ?? 3600;
    accessTokens.set(accessToken, Date.now() + lifetime * 1000);
    send(response, 200, { access_token: accessToken, expires_in: lifetime, token_type: 'Bearer' });
  }

  function checkAssertion(assertion: string | null): string | undefined {
    const parts = assertion?.split('.') ?? [];
    if (parts.length !== 3) return 'assertion is not a JWT';
    const [header, payload, signature] = parts as [string, string, string];
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      publicKey,
      Buffer.from(signature, 'base64url'),
    );
    if (!signed) return 'Invalid JWT Signature.';
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const now = Date.now() / 1000;
    if (claims.iss !== clientEmail) return 'unknown issuer';
    if (claims.aud !== tokenUri) return `audience must be ${tokenUri}`;
    if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(FCM_SCOPE))
      return 'scope missing';
    if (typeof claims.exp !== 'number' || claims.exp < now) return 'assertion expired';
    return undefined;
  }

  function answerSend(
    project: string,
    authorization: string | undefined,
    text: string,
    response: ServerResponse,
  ) {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const expiry = bearer ? accessTokens.get(bearer) : undefined;
    if (expiry === undefined || expiry < Date.now()) {
      return send(
        response,
        401,
        googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'),
      );
    }
    if (project !== projectId) {
      return send(
        response,
        403,
        googleError(403, 'PERMISSION_DENIED', 'SenderId mismatch', 'SENDER_ID_MISMATCH'),
      );
    }
    const next = forced.shift();
    if (next)
      return send(
        response,
        next.status,
        next.body ?? googleError(next.status, 'UNAVAILABLE', 'forced'),
        next.headers,
      );

    let body: DeliveredMessage['body'];
    try {
      body = JSON.parse(text) as DeliveredMessage['body'];
    } catch {
      return send(response, 400, googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
    }
    const violation = messageViolation(body);
    if (violation) {
      return send(
        response,
        400,
        googleError(400, 'INVALID_ARGUMENT', violation.description, 'INVALID_ARGUMENT', violation.field),
      );
    }
    const token = body.message.token as string;
    if (fake.unregistered.has(token)) {
      return send(
        response,
        404,
        googleError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED'),
      );
    }
    if (fake.invalid.has(token)) {
      return send(
        response,
        400,
        googleError(
          400,
          'INVALID_ARGUMENT',
          'The registration token is not a valid FCM registration token',
          'INVALID_ARGUMENT',
          'message.token',
        ),
      );
    }
    fake.delivered.push({ token, body });
    send(response, 200, { name: `projects/${projectId}/messages/${randomBytes(8).toString('hex')}` });
  }

  return fake;
}

/** The checks FCM applies to the fields this service sends. */
function messageViolation(body: unknown): { field: string; description: string } | undefined {
  const message = (body as { message?: unknown } | null)?.message;
  if (typeof message !== 'object' || message === null)
    return { field: 'message', description: 'message is required' };
  const { token, notification, data } = message as Record<string, unknown>;
  if (typeof token !== 'string' || token === '')
    return { field: 'message.token', description: 'token is required' };
  if (notification !== undefined) {
    const { title, body: text } = notification as Record<string, unknown>;
    if (
      (title !== undefined && typeof title !== 'string') ||
      (text !== undefined && typeof text !== 'string')
    ) {
      return { field: 'message.notification', description: 'title and body must be strings' };
    }
  }
  if (data !== undefined) {
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      if (typeof value !== 'string')
        return { field: `message.data[${key}]`, description: 'data values must be strings' };
      if (RESERVED_DATA_KEYS.test(key))
        return { field: `message.data[${key}]`, description: 'reserved data key' };
    }
  }
  return undefined;
}

function googleError(code: number, status: string, message: string, errorCode?: string, field?: string) {
  const details: unknown[] = [];
  if (errorCode) details.push({ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode });
  if (field) {
    details.push({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [{ field, description: message }],
    });
  }
  return { error: { code, message, status, ...(details.length ? { details } : {}) } };
}

/** Google spells its JSON content type this way. */
function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  sendJson(response, status, body, { 'content-type': 'application/json; charset=UTF-8', ...headers });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
