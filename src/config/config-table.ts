import type { TSchema } from '@sinclair/typebox';
import { ConfigSchema } from './schema.js';
import { type VariableInfo, variablesIn } from './variable.js';

/**
 * The README's configuration table, written from the schema: one row per variable in the
 * schema's order. Plain Markdown; `npm run docs:config` lays it out as the formatter does.
 */
export function configTable(schema: TSchema = ConfigSchema): string {
  const rows = [...variablesIn(schema)].map(({ info }) => [
    `\`${info.env}\``,
    defaultCell(info),
    info.description,
  ]);
  return [['variable', 'default', 'meaning'], ['---', '---', '---'], ...rows]
    .map((cells) => `| ${cells.map(cell).join(' | ')} |`)
    .join('\n')
    .concat('\n');
}

function defaultCell(info: VariableInfo): string {
  const unset =
    info.default !== undefined && info.default !== '' ? `\`${info.default}\`` : (info.unset ?? 'unset');
  const { requiredWhen } = info;
  return requiredWhen ? `${unset}; required when \`${requiredWhen.env}=${requiredWhen.is}\`` : unset;
}

/** A table cell holds one line, and a pipe inside it would end the cell. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}
