import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDashboardKey } from '../../../src/cli/client-key.js';
import { jobsCommand } from '../../../src/cli/jobs-command.js';
import { uploadCommand } from '../../../src/cli/upload-command.js';
import { DashboardClient } from '../../../src/client/index.js';
import { startLiveServer, type LiveServer } from '../../support/live-server.js';
import { testConfig } from '../../support/test-app.js';
import { JUNIT } from '../../support/key-support.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (text: string) => void out.push(text), err: (text: string) => void err.push(text) },
    out,
    err,
  };
}

describe('keys through the typed client and the CLI', () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startLiveServer();
  });
  afterAll(async () => server.close());

  it('creates, lists and revokes keys; a read key reads and is refused changes with FORBIDDEN', async () => {
    const created = await server.client.keys.create({ name: 'Readers', scope: 'read' });
    expect(created.data.key).toMatch(/^tdk_/);
    const reader = new DashboardClient({ baseUrl: server.baseUrl, apiKey: created.data.key, retries: 0 });
    expect(await server.client.auth.validate(created.data.key)).toMatchObject({
      valid: true,
      scope: 'read',
      name: 'Readers',
    });
    expect((await reader.apps.list()).data).toEqual([]);
    await expect(reader.todos.create({ title: 'no' })).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    await expect(reader.keys.list()).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });

    const listed = await server.client.keys.list({ limit: 10 });
    expect(listed.data.map((key) => key.prefix)).toEqual([created.data.prefix]);
    expect(listed.pagination).toMatchObject({ total: 1 });
    await server.client.keys.revoke(created.data.id);
    await expect(reader.apps.list()).rejects.toMatchObject({ status: 401 });
    await expect(server.client.keys.revoke(created.data.id)).rejects.toMatchObject({ status: 409 });
  });

  it('the CLI presents DASHBOARD_API_KEY when it is set, else API_SECURITY_KEY', async () => {
    const read = (await server.client.keys.create({ name: 'CLI reader', scope: 'read' })).data.key;
    // The configured admin key is wrong here: only DASHBOARD_API_KEY can make these calls pass.
    const config = testConfig({
      API_BASE_URL: server.baseUrl,
      API_SECURITY_KEY: 'not-the-server-key-0123456789abcdefghij',
    });
    expect(withDashboardKey(config, {})).toBe(config);
    expect(withDashboardKey(config, { DASHBOARD_API_KEY: '  ' })).toBe(config);
    const withRead = withDashboardKey(config, { DASHBOARD_API_KEY: read });
    expect(withRead.apiKey).toBe(read);

    const listed = capture();
    expect(await jobsCommand(['list'], withRead, listed.io)).toBe(0);
    expect(listed.out[0]).toMatch(/^NAME/);
    const refused = capture();
    expect(await jobsCommand(['run', 'delete-completed-todos'], withRead, refused.io)).toBe(77);
    expect(refused.err[0]).toMatch(/scope "read".*use an admin key/);
    const wrong = capture();
    expect(await jobsCommand(['list'], config, wrong.io)).toBe(77);
    expect(wrong.err[0]).toContain('DASHBOARD_API_KEY');
  });

  it('dashboard upload sends with an upload key from DASHBOARD_API_KEY, for its applications only', async () => {
    for (const code of ['shop', 'blog']) {
      await server.client.apps.create({ name: code, code, pipelineUrl: `https://ci.example.com/${code}` });
    }
    const key = (await server.client.keys.create({ name: 'Shop CI', scope: 'upload', apps: ['shop'] })).data
      .key;
    const dir = mkdtempSync(join(tmpdir(), 'keys-upload-'));
    try {
      const file = join(dir, 'junit.xml');
      writeFileSync(file, JUNIT);
      const env = { DASHBOARD_URL: server.baseUrl, DASHBOARD_API_KEY: key };
      const sent = capture();
      expect(await uploadCommand([file, '--app', 'shop', '--run', '5'], env, sent.io)).toBe(0);
      expect(sent.out[0]).toMatch(/uploaded as #\d+/);
      const refused = capture();
      expect(await uploadCommand([file, '--app', 'blog', '--run', '5'], env, refused.io)).toBe(1);
      expect(refused.err[0]).toContain('upload failed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
