import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, openTestDatabase } from '../../../support/databases.js';
import type { DatabaseHandle } from '../../../../src/db/database.js';
import { describeFailure } from '../../../../src/integrations/call-outcomes.js';
import { ExternalServiceError } from '../../../../src/shared/errors.js';
import {
  createIntegrationStatusRepository,
  type IntegrationStatusRepository,
} from '../../../../src/modules/status/integration-status.repository.js';
import { createIntegrationStatusTracker } from '../../../../src/modules/status/integration-status.js';

describe('describeFailure', () => {
  it('keeps one short line without query strings, credentials in URLs or secret values', () => {
    const error = new ExternalServiceError(
      'test-results service',
      'The test-results service answered 500 for https://cloud.example.com/report?report_id=x&token=abc123secret: oops',
    );
    expect(describeFailure(error)).toBe(
      'The test-results service answered 500 for https://cloud.example.com/report oops',
    );
    expect(describeFailure(new Error('GET https://user:pa55word@ghe.example.com/x failed'))).toBe(
      'GET https://ghe.example.com/x failed',
    );
    expect(describeFailure(new Error('token ghp_0123456789 was\n refused'), ['ghp_0123456789'])).toBe(
      'token [redacted] was refused',
    );
    expect(describeFailure(new Error('x'.repeat(500)))).toHaveLength(200);
    expect(describeFailure('plain text')).toBe('plain text');
    expect(describeFailure(42)).toBe('unknown failure');
  });
});

describe.each(DIALECTS)('integration status tracker (%s)', (dialect) => {
  let database: DatabaseHandle;
  let repository: IntegrationStatusRepository;
  let clock: number;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    repository = createIntegrationStatusRepository(database.db);
  });
  afterAll(async () => database.close());
  beforeEach(async () => {
    await database.db.deleteFrom('integration_status').execute();
    clock = Date.parse('2025-03-10T09:00:00.000Z');
  });

  const rowOf = async (name: string) => (await repository.list()).find((row) => row.name === name);
  const at = (offsetMs: number) => new Date(Date.parse('2025-03-10T09:00:00.000Z') + offsetMs).toISOString();

  it('writes a success at most once per interval, but at once after an error', async () => {
    const tracker = createIntegrationStatusTracker(repository, {
      successIntervalMs: 30_000,
      now: () => clock,
    });
    const github = tracker.outcomes('github');
    github.succeeded();
    clock += 10_000;
    github.succeeded();
    await tracker.settled();
    expect((await rowOf('github'))?.last_success_at).toBe(at(0));

    clock += 20_000;
    github.succeeded();
    await tracker.settled();
    expect((await rowOf('github'))?.last_success_at).toBe(at(30_000));

    clock += 1_000;
    github.failed(new Error('GitHub answered 503'));
    await tracker.settled();
    expect(await rowOf('github')).toMatchObject({
      last_success_at: at(30_000),
      last_error: 'GitHub answered 503',
      last_error_at: at(31_000),
    });

    clock += 1_000;
    github.succeeded();
    await tracker.settled();
    expect(await rowOf('github')).toMatchObject({ last_success_at: at(32_000), last_error: null });
  });

  it('writes every error at once, without the secrets it was given, one row per integration', async () => {
    const tracker = createIntegrationStatusTracker(repository, { now: () => clock });
    const jira = tracker.outcomes('jira', ['jira-secret-value']);
    jira.failed(new Error('Jira refused jira-secret-value'));
    clock += 1;
    jira.failed(new Error('Jira answered 500'));
    tracker.outcomes('fcm').failed(new Error('no token'));
    await tracker.settled();
    expect(await rowOf('jira')).toMatchObject({ last_error: 'Jira answered 500', last_success_at: null });
    expect((await repository.list()).map((row) => row.name).sort()).toEqual(['fcm', 'jira']);
    const text = JSON.stringify(await repository.list());
    expect(text).not.toContain('jira-secret-value');
  });

  it('drops a write the database refuses instead of failing the call that reported it', async () => {
    const other = await openTestDatabase(dialect);
    const tracker = createIntegrationStatusTracker(createIntegrationStatusRepository(other.db));
    await other.close();
    expect(() => tracker.outcomes('cypress').failed(new Error('down'))).not.toThrow();
    await expect(tracker.settled()).resolves.toBeUndefined();
  });
});
