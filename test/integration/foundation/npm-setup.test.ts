import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));

describe('npm setup of this repository', () => {
  it('gives npm no project setting it does not know (no "Unknown project config" warning)', async () => {
    // Any npm command reads the project's .npmrc and warns there; `npm pkg get` touches nothing.
    const { stdout, stderr } = await run('npm', ['pkg', 'get', 'name'], { cwd: REPOSITORY });
    expect(stdout.trim()).toBe('"e2e-dashboard-service"');
    expect(stderr).not.toMatch(/Unknown (project|user|env) config/);
  });

  it("still has better-sqlite3's install build from source instead of downloading a binary", async () => {
    // prebuild-install reads its settings the way better-sqlite3's install script runs it: from
    // the package's folder, without npm's npm_config_build_from_source.
    const env = { ...process.env };
    delete env.npm_config_build_from_source;
    const script =
      "const settings = require(require.resolve('prebuild-install/rc.js', { paths: [process.cwd()] }))(require('./package.json'));" +
      'process.stdout.write(JSON.stringify({ buildFromSource: settings.buildFromSource, configs: settings.configs }));';
    const { stdout } = await run(process.execPath, ['-e', script], {
      cwd: fileURLToPath(new URL('../../../node_modules/better-sqlite3/', import.meta.url)),
      env,
    });
    const settings = JSON.parse(stdout) as { buildFromSource: unknown; configs: string[] };
    expect(settings.buildFromSource).toBe(true);
    expect(settings.configs).toContain(`${REPOSITORY}.prebuild-installrc`);
  });
});
