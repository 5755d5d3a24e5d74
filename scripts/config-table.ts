import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { configTable } from '../src/config/config-table.js';

export const README = new URL('../README.md', import.meta.url);

const START = '<!-- configuration table: generated from src/config/schema.ts by `npm run docs:config` -->';
const END = '<!-- end of the configuration table -->';

/** The configuration table as the README holds it: laid out by Prettier with the project's settings. */
export async function formattedConfigTable(): Promise<string> {
  const options = await resolveConfig(fileURLToPath(README));
  return format(configTable(), { ...options, parser: 'markdown' });
}

function markers(readme: string): { start: number; end: number } {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) throw new Error(`README.md lacks the markers ${START} … ${END}`);
  return { start: start + START.length, end };
}

/** The table between the README's markers. */
export function tableIn(readme: string): string {
  const { start, end } = markers(readme);
  return readme.slice(start, end).trim() + '\n';
}

/** The README with `table` between its markers. */
export function withTable(readme: string, table: string): string {
  const { start, end } = markers(readme);
  return `${readme.slice(0, start)}\n\n${table.trim()}\n\n${readme.slice(end)}`;
}
