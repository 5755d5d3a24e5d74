/**
 * What a spec is called: the test file, relative to the repository, whatever the reporter wrote.
 * Reporters differ (an absolute path of the CI machine, a path relative to the working folder, a
 * Python module as an xUnit class name, the runner's own name for the whole run); these rules
 * give one name per file so that its history does not split when the checkout path changes.
 */

/** Names runners give the whole run or its root suite: never a test file. */
const RUNNER_SUITE_NAMES = new Set([
  'pytest',
  'pytest tests',
  'mocha tests',
  'root suite',
  'jest tests',
  'vitest tests',
]);

export const isRunnerSuiteName = (name: string | undefined) =>
  name === undefined || name.trim() === '' || RUNNER_SUITE_NAMES.has(name.trim().toLowerCase());

/** Endings of test files in the languages whose reporters write JUnit XML. */
const SOURCE_FILE =
  /\.(?:[cm]?[jt]sx?|py|rb|java|kt|kts|scala|groovy|go|cs|fs|vb|php|swift|feature|robot|exs?|rs)$/i;

const DOTTED_NAME = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;

/** pytest discovers `test_*.py` and `*_test.py`: a module named so is a Python test file. */
const PYTHON_TEST_MODULE = /^test_|_test$/;

const WINDOWS_ABSOLUTE = /^[A-Za-z]:\//;

/** Forward slashes, no `./` in front, no slash at the end. */
function slashed(path: string): string {
  return path
    .trim()
    .replaceAll('\\', '/')
    .replace(/^(?:\.\/)+/, '')
    .replace(/(?<=.)\/+$/, '');
}

const isAbsolute = (path: string) => path.startsWith('/') || WINDOWS_ABSOLUTE.test(path);

/**
 * The root the uploader names (`root`: the CI's checkout folder), ready to compare with paths;
 * undefined when it is not an absolute path.
 */
export function rootOf(root: string | undefined): string | undefined {
  if (root === undefined) return undefined;
  const clean = slashed(root);
  return isAbsolute(clean) && clean !== '/' ? clean : undefined;
}

/**
 * A file as the report should call it: an absolute path under `root` relative to it; any other
 * absolute path (another machine's checkout) keeps its last three components, which stay the
 * same when only the checkout folder moves; a relative path is kept (slashes normalised).
 */
export function specPathOf(file: string, root: string | undefined): string {
  const path = slashed(file);
  if (!isAbsolute(path)) return path;
  if (root !== undefined) {
    // Windows paths compare without case (C:/Work and c:/work are one folder).
    const windows = WINDOWS_ABSOLUTE.test(root);
    const [inPath, inRoot] = windows ? [path.toLowerCase(), root.toLowerCase()] : [path, root];
    if (inPath.startsWith(`${inRoot}/`)) return path.slice(root.length + 1);
  }
  return path.split('/').filter(Boolean).slice(-3).join('/');
}

/** Whether a name is already a file (a path, or a name with a source file's ending). */
export const looksLikeFile = (name: string) =>
  name.includes('/') || name.includes('\\') || SOURCE_FILE.test(name);

/**
 * The test file behind an xUnit class name. `tests.test_orders.TestCheckout` is the class
 * `TestCheckout` of the module `tests.test_orders`, so the file is `tests/test_orders.py`: class
 * names (capitalised) are dropped and the module becomes a path. Undefined when the name is not
 * a Python test module (a Java class such as `com.shop.CheckoutTest` stays as it is).
 */
export function moduleFileOf(classname: string, pythonReport: boolean): string | undefined {
  const name = classname.trim();
  if (!DOTTED_NAME.test(name)) return undefined;
  const parts = name.split('.');
  while (parts.length > 0 && /^[A-Z]/.test(parts.at(-1)!)) parts.pop();
  const module = parts.at(-1);
  if (module === undefined) return undefined;
  if (!pythonReport && !PYTHON_TEST_MODULE.test(module)) return undefined;
  return `${parts.join('/')}.py`;
}

/** The class names after the module in an xUnit class name (pytest's test classes), outermost first. */
export function classTitlesOf(classname: string): string[] {
  if (!DOTTED_NAME.test(classname.trim())) return [];
  const parts = classname.trim().split('.');
  const firstClass = parts.findIndex((part) => /^[A-Z]/.test(part));
  return firstClass < 0 ? [] : parts.slice(firstClass);
}

/** `file:line`, the file named as a spec is. */
export function locationOf(
  file: string | undefined,
  line: unknown,
  root: string | undefined,
): string | undefined {
  if (file === undefined || file.trim() === '') return undefined;
  const number = typeof line === 'number' ? line : Number(line);
  if (!Number.isInteger(number) || number <= 0) return undefined;
  return `${specPathOf(file, root)}:${number}`;
}

/** Characters that may stand before a file name in a stack frame or a failure text. */
const BEFORE_FILE = new Set([' ', '\t', '\n', '\r', '(', '/', '\\']);

/**
 * The line of `spec` that a stack trace or a failure text names first (`at … (path/spec.js:12:5)`,
 * pytest's `tests/test_orders.py:16: AssertionError`), as `spec:line`; undefined when it names none.
 * A scan for the file's name rather than a regular expression built per failure.
 */
export function locationInText(text: string | undefined, spec: string): string | undefined {
  if (!text || spec === '') return undefined;
  const needle = `${spec.slice(spec.lastIndexOf('/') + 1)}:`;
  const end = Math.min(text.length, 65_536);
  for (let at = text.indexOf(needle); at >= 0 && at < end; at = text.indexOf(needle, at + 1)) {
    if (at > 0 && !BEFORE_FILE.has(text[at - 1]!)) continue;
    let digits = at + needle.length;
    while (digits < text.length && text.charCodeAt(digits) >= 48 && text.charCodeAt(digits) <= 57)
      digits += 1;
    if (digits > at + needle.length) return `${spec}:${text.slice(at + needle.length, digits)}`;
  }
  return undefined;
}
