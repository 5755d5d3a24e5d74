import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The unit tier needs no server (docs/testing.md): none of its test files may reach, through its
 * relative imports, the module that probes PostgreSQL and Redis, a suite of another tier,
 * Playwright, or a test helper that starts child processes. A test that needs one of them belongs
 * in test/integration or test/browser.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const UNIT_FOLDERS = ['src', 'web/src', 'test/unit'];

const FORBIDDEN: { what: string; matches: (file: string, text: string) => boolean }[] = [
  { what: 'the PostgreSQL/Redis probe', matches: (file) => file === 'test/support/services.ts' },
  { what: 'the test-database module that probes', matches: (file) => file === 'test/support/databases.ts' },
  {
    what: 'another tier',
    matches: (file) => file.startsWith('test/integration/') || file.startsWith('test/browser/'),
  },
  { what: 'Playwright', matches: (_file, text) => /from ['"]playwright(-core)?['"]/.test(text) },
  {
    what: 'child processes started by a test',
    matches: (file, text) => file.startsWith('test/') && /from ['"](node:)?child_process['"]/.test(text),
  },
];

function testFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = `${dir}/${name}`;
      if (name === 'node_modules' || name === 'dist') continue;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (/\.test\.tsx?$/.test(name)) found.push(path);
    }
  };
  walk(folder);
  return found;
}

const IMPORT = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), specifier)).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((file) => existsSync(join(ROOT, file)));
}

/** Every repository file a test file reaches through relative imports, with what it imports. */
function reach(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    const text = readFileSync(join(ROOT, file), 'utf8');
    seen.set(file, text);
    for (const [, specifier] of text.matchAll(IMPORT)) {
      const target = resolveImport(file, specifier!);
      if (target) pending.push(relative(ROOT, join(ROOT, target)));
    }
  }
  return seen;
}

describe('the unit tier needs no server', () => {
  const files = UNIT_FOLDERS.flatMap(testFiles);

  it('finds the unit tests', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it('no unit test reaches PostgreSQL, Redis, Chromium, another tier or spawned processes', () => {
    const offences: string[] = [];
    for (const file of files) {
      for (const [reached, text] of reach(file)) {
        for (const rule of FORBIDDEN)
          if (rule.matches(reached, text)) offences.push(`${file} → ${reached} (${rule.what})`);
      }
    }
    expect(offences).toEqual([]);
  });
});
