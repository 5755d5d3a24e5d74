/**
 * Lists the source files over 300 lines and the functions over 80 lines (docs/architecture.md's
 * size rule), leaving out React components (a capitalized function in a `.tsx` file) and route
 * tables (a function that registers routes: `app.get(…)`, `app.route(…)` and the like).
 *
 *   npx tsx scripts/size-report.ts [--tests]   (exit code 1 when anything is listed)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
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

const ROUTE_CALL = /\b(app|scope|fastify|api|instance|server)\.(get|post|put|patch|delete|head|route)\(/;

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name)
    return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) {
    const callee = parent.expression.getText();
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteral(first) ? ` '${first.text}'` : '';
    return `${callee}${label} callback`;
  }
  return '(anonymous)';
}

interface Finding {
  file: string;
  what: string;
  lines: number;
}

function inspect(file: string): Finding[] {
  const text = readFileSync(file, 'utf8');
  const findings: Finding[] = [];
  const fileLines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (fileLines > MAX_FILE_LINES) findings.push({ file, what: '(file)', lines: fileLines });
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      const name = functionName(node);
      const component = file.endsWith('.tsx') && /^[A-Z]/.test(name);
      const routes = ROUTE_CALL.test(node.getText());
      if (lines > MAX_FUNCTION_LINES && !component && !routes) findings.push({ file, what: name, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

const roots = withTests ? [...ROOTS, 'test'] : ROOTS;
const files = roots
  .flatMap((root) => sourceFiles(root))
  .filter((file) => withTests || !/\.test\.tsx?$/.test(file))
  .filter((file) => !file.startsWith(join('test', 'fixtures')));
const findings = files.flatMap(inspect).sort((a, b) => b.lines - a.lines);
for (const finding of findings)
  process.stdout.write(
    `${String(finding.lines).padStart(5)}  ${relative('.', finding.file)}  ${finding.what}\n`,
  );
process.stdout.write(
  `${findings.length} over the limits (files > ${MAX_FILE_LINES}, functions > ${MAX_FUNCTION_LINES} lines)\n`,
);
process.exitCode = findings.length > 0 ? 1 : 0;
