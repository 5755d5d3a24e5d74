import { classTitlesOf, isRunnerSuiteName, looksLikeFile, moduleFileOf } from './spec-paths.js';

/** What the spec and title rules need of a `<testsuite>`. */
export interface JUnitSuite {
  name: string | undefined;
  file: string | undefined;
}

/** What they need of a `<testcase>`. */
export interface JUnitCase {
  name: string;
  classname: string | undefined;
  file: string | undefined;
}

/** The spec a suite stands for: its file, the file of the suites before it, else its name (never a runner's). */
export function junitSuiteSpecOf(suite: JUnitSuite | undefined, lastFile: string | undefined) {
  if (suite?.file) return suite.file;
  if (lastFile) return lastFile;
  return suite?.name && !isRunnerSuiteName(suite.name) ? suite.name : undefined;
}

/**
 * The spec of a test case: the `file` of the case or of its suite (or of the file's first suite,
 * mocha-junit-reporter); else the file an xUnit class name stands for (a path, or pytest's module
 * `tests.test_orders.TestCheckout` → `tests/test_orders.py`); else the suite's name unless it is
 * the runner's own (`pytest`, `Mocha Tests`, …); else the class name. pytest names a module that
 * failed to import by the case itself (`name="tests.test_broken"`, no class name).
 */
export function junitSpecOf(
  test: JUnitCase,
  suite: JUnitSuite | undefined,
  context: { lastFile: string | undefined; pytest: boolean },
): string {
  if (test.file) return test.file;
  if (suite?.file) return suite.file;
  if (context.lastFile) return context.lastFile;
  const classname = test.classname?.trim();
  if (classname) {
    if (!/\s/.test(classname) && looksLikeFile(classname)) return classname;
    const module = moduleFileOf(classname, context.pytest);
    if (module) return module;
  }
  if (suite?.name && !isRunnerSuiteName(suite.name)) return suite.name;
  if (classname) return classname;
  if (context.pytest) return moduleFileOf(test.name, true) ?? '(no spec)';
  return '(no spec)';
}

const SEPARATORS = [' › ', ' > '];

/**
 * The describe titles and the test's own title. Playwright (`a › b › test`) and Vitest
 * (`a > b > test`) join them in the name; pytest's classes are in the class name; mocha-junit-
 * reporter puts the test's own title in the class name and the suite's in the suite; jest-junit
 * starts the name with the outer describe.
 */
export function junitTitlePath(test: JUnitCase, suite: JUnitSuite | undefined, pytest: boolean): string[] {
  const name = test.name;
  for (const separator of SEPARATORS) {
    if (name.includes(separator)) return name.split(separator).map((part) => part.trim());
  }
  const classname = test.classname?.trim();
  if (classname && (pytest || /^[\w.]+$/.test(classname))) {
    const classes = classTitlesOf(classname);
    if (classes.length > 0) return [...classes, name];
    if (pytest) return [name];
  }
  if (classname && classname !== name && name.endsWith(` ${classname}`)) {
    const describes = name.slice(0, -classname.length - 1).trim();
    const inner = suite?.name?.trim();
    if (inner && describes !== inner && describes.endsWith(` ${inner}`)) {
      return [describes.slice(0, -inner.length - 1).trim(), inner, classname];
    }
    return describes ? [describes, classname] : [classname];
  }
  const outer = suite?.name?.trim();
  if (outer && !isRunnerSuiteName(outer) && name.startsWith(`${outer} `)) {
    return [outer, name.slice(outer.length + 1)];
  }
  return [name];
}
