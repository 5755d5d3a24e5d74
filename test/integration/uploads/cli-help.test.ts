import { describe, expect, it } from 'vitest';
import { runCli, scratchFolder } from './cli-process.js';

describe('dashboard help', () => {
  const cwd = scratchFolder('cli-help-');

  it('lists every command for --help, -h and help, and exits 0', async () => {
    for (const args of [['--help'], ['-h'], ['help'], []]) {
      const result = await runCli(args, { cwd });
      expect(result.code).toBe(0);
      for (const command of ['serve', 'migrate', 'jobs list', 'jobs run', 'report', 'upload', 'help']) {
        expect(result.out).toContain(`  ${command}`);
      }
    }
  });

  it('describes upload and each of its flags for help upload, upload --help and upload -h', async () => {
    const answers = await Promise.all(
      [
        ['help', 'upload'],
        ['upload', '--help'],
        ['upload', 'report.xml', '-h'],
      ].map((args) => runCli(args, { cwd })),
    );
    for (const result of answers) {
      expect(result.code).toBe(0);
      expect(result.err).toBe('');
      expect(result.out).toBe(answers[0]!.out);
    }
    for (const flag of [
      '--app',
      '--run',
      '--attempt',
      '--commit',
      '--branch',
      '--author',
      '--triggered-by',
      '--url',
      '--root',
      '--create-app',
      '--timeout',
      '--help',
    ]) {
      expect(answers[0]!.out).toContain(flag);
    }
  });

  it('refuses an unknown command with 64', async () => {
    const result = await runCli(['uplaod'], { cwd });
    expect(result.code).toBe(64);
    expect(result.err).toMatch(/^unknown command "uplaod"\n\nUsage: dashboard/);
  });
});
