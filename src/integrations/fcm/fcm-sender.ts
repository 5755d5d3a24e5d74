import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '../../shared/log.js';
import type { JWT } from 'google-auth-library';
import { GOOGLE_TOKEN_URI, type ServiceAccount } from './fcm-credentials.js';
import { type CallOutcomes, UNTRACKED } from '../call-outcomes.js';
import { classifyFcmError, parseRetryAfter } from './fcm-errors.js';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/** What every device receives: `data` values are strings, as FCM requires. */
export interface PushMessage {
  title: string;
  body: string;
  data: Record<string, string>;
}

export interface SendReport {
  delivered: number;
  /** Tokens FCM answered UNREGISTERED or INVALID_ARGUMENT for: they will never work again. */
  invalidTokens: string[];
  /** Tokens that still failed after the retries (or any other error): kept for next time. */
  failed: number;
}

export interface FcmSenderOptions {
  account: ServiceAccount;
  /** `https://fcm.googleapis.com` in production; a fake server's address in tests. */
  baseUrl: string;
  /** Requests in flight at once. */
  concurrency: number;
  timeoutMs: number;
  log: Pick<Log, 'warn' | 'error' | 'debug'>;
  /** Retries of one token after a 429, a 5xx or a network error (default 3). */
  maxRetries?: number;
  /** First backoff delay, doubled on each retry, when the answer has no Retry-After (default 1 s). */
  retryBaseMs?: number;
  /** Upper bound of any single wait, Retry-After included (default 30 s). */
  maxRetryDelayMs?: number;
  /** Told how each delivery (and each access-token request) went (status page). */
  outcomes?: CallOutcomes;
}

export type FcmSender = ReturnType<typeof createFcmSender>;

type Outcome = 'delivered' | 'invalid' | 'failed';

/**
 * FCM HTTP v1 sender: one `messages:send` request per token (the v1 API has no multicast), at
 * most `concurrency` at a time, with an OAuth2 access token obtained from the service account.
 */
export function createFcmSender(options: FcmSenderOptions) {
  const { account, log } = options;
  const maxRetries = options.maxRetries ?? 3;
  const retryBaseMs = options.retryBaseMs ?? 1000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  const outcomes = options.outcomes ?? UNTRACKED;
  const endpoint = new URL(
    `/v1/projects/${encodeURIComponent(account.projectId)}/messages:send`,
    options.baseUrl,
  ).toString();

  // google-auth-library signs the JWT and caches the access token until shortly before expiry.
  // Its JWT flow always targets Google's token endpoint, so the `token_uri` of the credentials is
  // honoured by overriding the audience claim and redirecting that one request. The library is
  // loaded with the first token request: a process that never pushes does not pay for it.
  let signer: JWT | undefined;
  let loading: Promise<JWT> | undefined;
  const loadSigner = async (): Promise<JWT> => {
    const { JWT } = await import('google-auth-library');
    const jwt = new JWT({
      email: account.clientEmail,
      key: account.privateKey,
      scopes: [FCM_SCOPE],
      transporterOptions: { timeout: options.timeoutMs },
      ...(account.tokenUri !== GOOGLE_TOKEN_URI ? { additionalClaims: { aud: account.tokenUri } } : {}),
    });
    if (account.tokenUri !== GOOGLE_TOKEN_URI) {
      jwt.transporter.interceptors.request.add({
        resolved: async (request) => {
          if (request.url.href === GOOGLE_TOKEN_URI) request.url = new URL(account.tokenUri);
          return request;
        },
      });
    }
    signer = jwt;
    return jwt;
  };

  /** Set by a 429: no request leaves before this time. */
  let pausedUntil = 0;
  let tokenRequest: Promise<string> | undefined;
  /** One token request at a time, however many sends ask for it together. */
  function accessToken(): Promise<string> {
    loading ??= loadSigner();
    tokenRequest ??= loading
      .then((jwt) => jwt.getAccessToken())
      .then(({ token }) => {
        if (!token) throw new Error('the token endpoint returned no access_token');
        return token;
      })
      .finally(() => {
        tokenRequest = undefined;
      });
    return tokenRequest;
  }

  /**
   * Marks the cached token expired (FCM refused it with 401) so the next request signs and
   * exchanges a new one; only if it is still the refused one, or each concurrent 401 would
   * throw away the token fetched by the previous one.
   */
  function forgetAccessToken(refused: string): void {
    if (signer?.credentials.access_token === refused) {
      signer.credentials = { ...signer.credentials, expiry_date: 1 };
    }
  }

  function backoff(retry: number, retryAfterMs: number | undefined): number {
    const exponential = retryBaseMs * 2 ** retry;
    const jittered = exponential / 2 + Math.random() * (exponential / 2);
    return Math.min(retryAfterMs ?? jittered, maxRetryDelayMs);
  }

  async function sendOne(token: string, message: PushMessage): Promise<Outcome> {
    const body = JSON.stringify({
      message: { token, notification: { title: message.title, body: message.body }, data: message.data },
    });
    let refreshedAuth = false;
    for (let retry = 0; ; retry++) {
      const pause = pausedUntil - Date.now();
      if (pause > 0) await sleep(pause);
      let status: number;
      let text: string;
      let retryAfterMs: number | undefined;
      let bearer = '';
      try {
        bearer = await accessToken();
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${bearer}`,
            'content-type': 'application/json; charset=utf-8',
          },
          body,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        status = response.status;
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        text = await response.text();
      } catch (error) {
        if (retry < maxRetries) {
          await sleep(backoff(retry, undefined));
          continue;
        }
        log.warn({ err: error, token: redact(token) }, 'push request failed');
        outcomes.failed(error);
        return 'failed';
      }

      if (status >= 200 && status < 300) {
        outcomes.succeeded();
        return 'delivered';
      }
      if (status === 401 && !refreshedAuth) {
        refreshedAuth = true;
        forgetAccessToken(bearer);
        retry--;
        continue;
      }
      if ((status === 429 || status >= 500) && retry < maxRetries) {
        const delay = backoff(retry, retryAfterMs);
        // Over quota is project-wide: every worker holds off, not only the one that was told.
        if (status === 429) pausedUntil = Math.max(pausedUntil, Date.now() + delay);
        await sleep(delay);
        continue;
      }
      const verdict = classifyFcmError(status, text);
      if (verdict.tokenIsInvalid) {
        // FCM worked; the device is gone.
        outcomes.succeeded();
        return 'invalid';
      }
      log.warn({ status, reason: verdict.reason, token: redact(token) }, 'push rejected by FCM');
      outcomes.failed(new Error(`FCM answered ${verdict.reason}`));
      return 'failed';
    }
  }

  return {
    projectId: account.projectId,

    /** Sends `message` to every token; never throws (problems are logged and counted). */
    async send(message: PushMessage, tokens: readonly string[]): Promise<SendReport> {
      const report: SendReport = { delivered: 0, invalidTokens: [], failed: 0 };
      if (tokens.length === 0) return report;
      try {
        await accessToken();
      } catch (error) {
        // Without a token no request can succeed: one log line instead of one per device.
        log.error({ err: error }, 'could not obtain an FCM access token; push skipped');
        outcomes.failed(error);
        report.failed = tokens.length;
        return report;
      }
      // A fixed set of workers pulling from a shared cursor bounds the requests in flight;
      // small enough not to warrant a dependency.
      let next = 0;
      const worker = async () => {
        while (next < tokens.length) {
          const token = tokens[next++]!;
          const outcome = await sendOne(token, message);
          if (outcome === 'delivered') report.delivered++;
          else if (outcome === 'invalid') report.invalidTokens.push(token);
          else report.failed++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.concurrency, tokens.length) }, worker));
      return report;
    },
  };
}

/** Enough of a device token to correlate log lines, not enough to reuse it. */
function redact(token: string): string {
  return token.length <= 12 ? '…' : `${token.slice(0, 8)}…`;
}
