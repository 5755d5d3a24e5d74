/**
 * The measurement behind the size rule (docs/architecture.md): no source file over 300 lines, no
 * function over 80 lines outside React components and route tables.
 *
 * A function is measured by its OWN lines: the lines of its span (from its first token to its
 * closing brace, leading comments left out) minus the lines of the multi-line functions nested in
 * it, which are measured on their own. Our `create*` factories are closures that return an object
 * of methods, the way another codebase would write a class; counting the whole closure would
 * list every factory with enough short methods, while the rule is about code that does too much in
 * one place. So a factory of short methods passes, and a long method, or a factory (or any
 * function) with long straight-line code of its own, is still listed.
 *
 * A nested function of one line (`rows.map((row) => row.id)`) stays in its enclosing function's
 * count: that line is part of the enclosing function's own statement, and taking it away would let
 * a long body hide behind inline callbacks.
 */
import ts from 'typescript';

export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 80;

export interface Finding {
  file: string;
  /** `(file)` for the file itself, otherwise the function's name. */
  what: string;
  lines: number;
}

export interface FunctionSize {
  name: string;
  /** First line to last line of the function, 1-based, inclusive. */
  span: number;
  /** The span minus the lines taken by multi-line nested functions. */
  own: number;
  /** A React component or a route table, which the rule leaves out. */
  exempt: boolean;
}

const ROUTE_CALL = /\b(app|scope|fastify|api|instance|server)\.(get|post|put|patch|delete|head|route)\(/;

type FunctionNode = ts.SignatureDeclaration & { body: ts.Node };

function isMeasured(node: ts.Node): node is FunctionNode {
  return ts.isFunctionLike(node) && 'body' in node && node.body !== undefined;
}

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

/** The functions directly inside `node`, not those nested in them. */
function nestedFunctions(node: ts.Node): FunctionNode[] {
  const found: FunctionNode[] = [];
  const visit = (child: ts.Node) => {
    if (isMeasured(child)) found.push(child);
    else ts.forEachChild(child, visit);
  };
  ts.forEachChild(node, visit);
  return found;
}

/** Every function in a source text with its span and own line counts. */
export function measureFunctions(file: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const sizes: FunctionSize[] = [];
  const visit = (node: ts.Node) => {
    if (isMeasured(node)) {
      const first = lineOf(node.getStart());
      const last = lineOf(node.getEnd());
      // A set, so that two nested functions sharing a line (`}, () => {`) take it away once.
      const own = new Set<number>();
      for (let line = first; line <= last; line++) own.add(line);
      for (const inner of nestedFunctions(node)) {
        const innerFirst = lineOf(inner.getStart());
        const innerLast = lineOf(inner.getEnd());
        if (innerLast === innerFirst) continue;
        for (let line = innerFirst; line <= innerLast; line++) own.delete(line);
      }
      const name = functionName(node);
      const component = file.endsWith('.tsx') && /^[A-Z]/.test(name);
      const routes = ROUTE_CALL.test(node.getText());
      sizes.push({ name, span: last - first + 1, own: own.size, exempt: component || routes });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sizes;
}

/** The file itself when it is over the limit, and its functions whose own lines are over it. */
export function inspectSource(file: string, text: string): Finding[] {
  const findings: Finding[] = [];
  const fileLines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (fileLines > MAX_FILE_LINES) findings.push({ file, what: '(file)', lines: fileLines });
  for (const size of measureFunctions(file, text))
    if (size.own > MAX_FUNCTION_LINES && !size.exempt)
      findings.push({ file, what: size.name, lines: size.own });
  return findings;
}
