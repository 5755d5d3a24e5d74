import { expect } from 'vitest';
import { TEST_KEY } from '../support/test-app.js';
import type { Stack } from './harness.js';

/** A JUnit file of one run: one suite per spec file, each with one test that passes or fails. */
export function junitRun(specs: readonly { file: string; failing: boolean; message?: string }[]): string {
  const suites = specs.map(({ file, failing, message = 'Expected the page to load' }) => {
    const result = failing ? `<failure message="${message}">${message}&#10;  at ${file}:4:2</failure>` : '';
    return `<testsuite name="${file}" file="${file}"><testcase name="works" time="1.5">${result}</testcase></testsuite>`;
  });
  return `<testsuites>${suites.join('')}</testsuites>`;
}

/** `POST /api/test_results` as a CI job sends it; the upload must be accepted. */
export async function postResults(stack: Stack, query: Record<string, string | number>, xml: string) {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const response = await fetch(new URL(`/api/test_results?${params.toString()}`, stack.baseUrl), {
    method: 'POST',
    headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/xml' },
    body: xml,
  });
  expect([200, 201], await response.text()).toContain(response.status);
}

interface Summary {
  status: string;
  lastReadyAt: string | null;
  totalRuns: number;
}

/** The summary of `date`, or undefined while there is none. */
export async function summaryOf(stack: Stack, date: string): Promise<Summary | undefined> {
  const { status, body } = await stack.api<Summary>(`/api/e2e_reports/${date}`);
  return status === 200 ? body.data : undefined;
}

const readyAfter = async (stack: Stack, date: string, before: string | null | undefined) => {
  const summary = await summaryOf(stack, date);
  return summary?.status === 'ready' && summary.lastReadyAt !== before ? summary : undefined;
};

/**
 * Waits until `date` has a ready version newer than `before` and returns it with the moment it was
 * seen. An accepted upload queues that regeneration by itself (issue #33); a service that does not
 * do it yet within a few seconds is asked to regenerate, so the test holds either way.
 */
export async function newerReadyReport(
  stack: Stack,
  date: string,
  before: string | null | undefined,
): Promise<{ summary: Summary; seenAt: number }> {
  const wait = async (ms: number) => {
    for (const end = Date.now() + ms; Date.now() < end;) {
      const summary = await readyAfter(stack, date, before);
      if (summary) return { summary, seenAt: Date.now() };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return undefined;
  };
  const byItself = await wait(6_000);
  if (byItself) return byItself;
  await stack.api(`/api/e2e_run_report?date=${date}&force=true`);
  const asked = await wait(30_000);
  if (!asked) throw new Error(`no newer ready report of ${date} within 36 s`);
  return asked;
}
