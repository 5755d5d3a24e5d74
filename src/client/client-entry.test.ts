import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('client package entry', () => {
  it('loads no server code: every import outside src/client is type-only', () => {
    const dir = join(import.meta.dirname);
    const sources = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(sources).toContain('index.ts');
    for (const name of sources) {
      const text = readFileSync(join(dir, name), 'utf8');
      const valueImports = [...text.matchAll(/^(?:import|export) (?!type )[^;]*? from '([^']+)'/gms)].map(
        (m) => m[1]!,
      );
      const outside = valueImports.filter((from) => !from.startsWith('./'));
      expect({ file: name, outside }).toEqual({ file: name, outside: [] });
    }
  });
});
