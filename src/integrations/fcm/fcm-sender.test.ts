import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config-error.js';
import { loadServiceAccount } from './fcm-credentials.js';
import { parseRetryAfter } from './fcm-errors.js';
import { createFcmSender, type FcmSenderOptions, type PushMessage } from './fcm-sender.js';
import { type FakeFcm, startFakeFcm } from '../../../test/fakes/fake-fcm-server.js';

/** Collects log lines so tests can check what was reported. */
function recordingLog() {
  const lines: Array<{ level: string; args: unknown[] }> = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push({ level, args });
  return {
    lines,
    log: { warn: at('warn'), error: at('error'), debug: at('debug') } as FcmSenderOptions['log'],
  };
}

const message: PushMessage = {
  title: 'Checkout failed',
  body: 'The nightly run failed',
  data: { notificationId: '7', type: 'e2e_failure', appId: '3' },
};

describe('FCM sender against the fake OAuth2 + FCM server', () => {
  let fake: FakeFcm;
  beforeAll(async () => {
    fake = await startFakeFcm();
  });
  afterAll(async () => fake.close());
  beforeEach(() => fake.reset());

  const sender = (options: Partial<FcmSenderOptions> = {}) =>
    createFcmSender({
      account: fake.serviceAccount,
      baseUrl: fake.baseUrl,
      concurrency: 10,
      timeoutMs: 5000,
      log: recordingLog().log,
      retryBaseMs: 10,
      ...options,
    });

  it('sends one HTTP v1 request per token with the exact message shape', async () => {
    const report = await sender().send(message, ['token-a', 'token-b']);
    expect(report).toEqual({ delivered: 2, invalidTokens: [], failed: 0 });
    const bodies = fake.delivered
      .map((entry) => entry.body)
      .sort((x, y) => String(x.message.token).localeCompare(String(y.message.token)));
    expect(bodies).toEqual(
      ['token-a', 'token-b'].map((token) => ({
        message: {
          token,
          notification: { title: 'Checkout failed', body: 'The nightly run failed' },
          data: { notificationId: '7', type: 'e2e_failure', appId: '3' },
        },
      })),
    );
  });

  it('exchanges a signed JWT at the token_uri once and reuses the access token', async () => {
    const fcm = sender();
    await fcm.send(message, ['a', 'b', 'c']);
    await fcm.send(message, ['d']);
    expect(fake.tokenRequests).toBe(1);
    expect(fake.delivered).toHaveLength(4);
  });

  it('fetches a new access token once when FCM answers 401', async () => {
    const fcm = sender();
    await fcm.send(message, ['a']);
    fake.revokeAccessTokens();
    fake.latencyMs = 5;
    // Ten concurrent requests are refused together; one new token serves them all.
    const report = await fcm.send(
      message,
      Array.from({ length: 30 }, (_, index) => `b-${index}`),
    );
    expect(report.delivered).toBe(30);
    expect(fake.tokenRequests).toBe(2);
  });

  it('reports UNREGISTERED and INVALID_ARGUMENT tokens as invalid, delivers the rest', async () => {
    fake.unregistered.add('gone');
    fake.invalid.add('garbage');
    const report = await sender().send(message, ['ok-1', 'gone', 'garbage', 'ok-2']);
    expect(report.delivered).toBe(2);
    expect(report.failed).toBe(0);
    expect(report.invalidTokens.sort()).toEqual(['garbage', 'gone']);
  });

  it('keeps the tokens when INVALID_ARGUMENT blames the message, not the token', async () => {
    const { lines, log } = recordingLog();
    const report = await sender({ log }).send({ ...message, data: { 'google.reserved': 'x' } }, ['a', 'b']);
    expect(report).toEqual({ delivered: 0, invalidTokens: [], failed: 2 });
    expect(lines.some((line) => line.level === 'warn')).toBe(true);
  });

  it('retries a 503 after the Retry-After delay', async () => {
    fake.failNext({ status: 503, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const report = await sender({ retryBaseMs: 1 }).send(message, ['a']);
    expect(report.delivered).toBe(1);
    expect(fake.sendRequests).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('holds every worker back after a 429 with Retry-After, not only the one told', async () => {
    fake.latencyMs = 20;
    fake.failNext({
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { status: 'RESOURCE_EXHAUSTED' } },
    });
    const tokens = Array.from({ length: 20 }, (_, index) => `t-${index}`);
    const started = Date.now();
    const sending = sender({ concurrency: 4 }).send(message, tokens);
    await new Promise((resolve) => setTimeout(resolve, 600));
    // Only the requests already in flight when the 429 arrived went through meanwhile.
    expect(fake.delivered.length).toBeLessThanOrEqual(4);
    expect((await sending).delivered).toBe(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('retries 429 and 500 with backoff, then gives up after the retries', async () => {
    fake.failNext({ status: 429 }, { status: 500 });
    expect((await sender().send(message, ['a'])).delivered).toBe(1);
    expect(fake.sendRequests).toBe(3);

    fake.reset();
    fake.failNext(...Array.from({ length: 4 }, () => ({ status: 502 })));
    const report = await sender({ maxRetries: 3 }).send(message, ['a']);
    expect(report).toEqual({ delivered: 0, invalidTokens: [], failed: 1 });
    expect(fake.sendRequests).toBe(4);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    fake.latencyMs = 15;
    const tokens = Array.from({ length: 60 }, (_, index) => `token-${index}`);
    const report = await sender({ concurrency: 4 }).send(message, tokens);
    expect(report.delivered).toBe(60);
    expect(fake.maxInFlight).toBe(4);
  });

  it('skips the whole batch with one error line when no access token can be obtained', async () => {
    const { lines, log } = recordingLog();
    const other = await startFakeFcm();
    try {
      // Credentials signed by another key: the token endpoint refuses the assertion.
      const fcm = sender({
        account: { ...fake.serviceAccount, privateKey: other.serviceAccount.privateKey },
        log,
      });
      const report = await fcm.send(message, ['a', 'b', 'c']);
      expect(report).toEqual({ delivered: 0, invalidTokens: [], failed: 3 });
      expect(fake.sendRequests).toBe(0);
      expect(lines.filter((line) => line.level === 'error')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe('service-account credentials', () => {
  let fake: FakeFcm;
  let dir: string;
  beforeAll(async () => {
    fake = await startFakeFcm({ projectId: 'creds-project' });
    dir = mkdtempSync(join(tmpdir(), 'fcm-creds-'));
  });
  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is off when neither variable is set', () => {
    expect(loadServiceAccount({})).toBeUndefined();
  });

  it('reads FCM_SERVICE_ACCOUNT_JSON, with its project id and token URI', () => {
    expect(loadServiceAccount({ serviceAccountJson: fake.serviceAccountJson })).toEqual({
      projectId: 'creds-project',
      clientEmail: fake.serviceAccount.clientEmail,
      privateKey: fake.serviceAccount.privateKey,
      tokenUri: fake.tokenUri,
    });
  });

  it('reads the GOOGLE_APPLICATION_CREDENTIALS file; the JSON variable wins when both are set', () => {
    const file = join(dir, 'key.json');
    const { token_uri: _ignored, ...withoutTokenUri } = JSON.parse(fake.serviceAccountJson) as Record<
      string,
      unknown
    >;
    writeFileSync(file, JSON.stringify(withoutTokenUri));
    expect(loadServiceAccount({ credentialsFile: file })?.tokenUri).toBe(
      'https://oauth2.googleapis.com/token',
    );
    expect(
      loadServiceAccount({ credentialsFile: file, serviceAccountJson: fake.serviceAccountJson })?.tokenUri,
    ).toBe(fake.tokenUri);
  });

  it('stops boot naming the variable when the credentials are unusable', () => {
    const cases: Array<[Parameters<typeof loadServiceAccount>[0], string]> = [
      [{ serviceAccountJson: '{not json' }, 'FCM_SERVICE_ACCOUNT_JSON'],
      [{ serviceAccountJson: '{"project_id": "p"}' }, 'FCM_SERVICE_ACCOUNT_JSON'],
      [{ credentialsFile: join(dir, 'missing.json') }, 'GOOGLE_APPLICATION_CREDENTIALS'],
    ];
    for (const [sources, variable] of cases) {
      expect(() => loadServiceAccount(sources)).toThrow(ConfigError);
      expect(() => loadServiceAccount(sources)).toThrow(variable);
    }
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
