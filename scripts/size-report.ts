/**
 * Lists the source files over 300 lines and the functions over 80 of their own lines
 * (docs/architecture.md's size rule), leaving out React components (a capitalized function in a
 * `.tsx` file) and route tables (a function that registers routes: `app.get(…)`, `app.route(…)`
 * and the like). How a function's own lines are counted, and why, is in scripts/code-size.ts.
 * `npm run lint` runs it, so the rule holds for every change.
 *
 *   npx tsx scripts/size-report.ts [--tests]   (exit code 1 when anything is listed)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inspectSource, MAX_FILE_LINES, MAX_FUNCTION_LINES } from './code-size.js';

const ROOTS = ['src', 'web/src', 'scripts', 'bench'];
const withTests = process.argv.includes('--tests');

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mjs)$/.test(name) && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

const roots = withTests ? [...ROOTS, 'test'] : ROOTS;
const files = roots
  .flatMap((root) => sourceFiles(root))
  .filter((file) => withTests || !/\.test\.tsx?$/.test(file))
  .filter((file) => !file.startsWith(join('test', 'fixtures')));
const findings = files
  .flatMap((file) => inspectSource(file, readFileSync(file, 'utf8')))
  .sort((a, b) => b.lines - a.lines);
for (const finding of findings)
  process.stdout.write(
    `${String(finding.lines).padStart(5)}  ${relative('.', finding.file)}  ${finding.what}\n`,
  );
process.stdout.write(
  `${findings.length} over the limits (files > ${MAX_FILE_LINES} lines, functions > ${MAX_FUNCTION_LINES} own lines)\n`,
);
process.exitCode = findings.length > 0 ? 1 : 0;
