import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { formattedConfigTable, README, tableIn, withTable } from '../../scripts/config-table.js';
import { configTable } from './config-table.js';
import { integer, text } from './kinds.js';
import { ConfigSchema } from './schema.js';
import { variablesIn } from './variable.js';

describe('configuration table', () => {
  it('matches the README (run `npm run docs:config` after changing src/config/schema.ts)', async () => {
    const readme = readFileSync(README, 'utf8');
    expect(tableIn(readme)).toBe(await formattedConfigTable());
  });

  it('has one row per variable, each name once, in the schema order', () => {
    const names = [...variablesIn(ConfigSchema)].map(({ info }) => info.env);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
    const rows = configTable().trimEnd().split('\n').slice(2);
    expect(rows.map((row) => /^\| `([A-Z0-9_]+)` \|/.exec(row)?.[1])).toEqual(names);
  });

  it('shows defaults as written in the environment, else what unset means', () => {
    const table = configTable();
    expect(table).toContain('| `PORT` | `3000` | port to listen on');
    expect(table).toContain('| `UPLOAD_MAX_BYTES` | `52428800` |');
    expect(table).toContain('| `WEBHOOK_RETRY_DELAYS_MS` | `1000,4000,16000` |');
    expect(table).toContain('| `REDIS_URL` | unset (in-process broker) |');
    expect(table).toContain('| `CORS_ORIGINS` | unset |');
    expect(table).toContain(
      '| `API_SECURITY_KEY` | generated per run outside production; required when `NODE_ENV=production` |',
    );
  });

  it('keeps each cell on one line and escapes pipes', () => {
    const schema = Type.Object({
      size: integer({ env: 'SIZE', default: 5, description: 'a | b\n  c' }),
      name: text({ env: 'NAME', description: 'plain' }),
    });
    expect(configTable(schema)).toBe(
      [
        '| variable | default | meaning |',
        '| --- | --- | --- |',
        '| `SIZE` | `5` | a \\| b c |',
        '| `NAME` | unset | plain |',
        '',
      ].join('\n'),
    );
  });

  it('puts a table between the markers and finds it there again', () => {
    const readme = readFileSync(README, 'utf8');
    const replaced = withTable(readme, '| a |\n| - |\n');
    expect(tableIn(replaced)).toBe('| a |\n| - |\n');
    expect(withTable(replaced, tableIn(readme))).toBe(readme);
    expect(() => tableIn('# no markers')).toThrow(/markers/);
  });
});
