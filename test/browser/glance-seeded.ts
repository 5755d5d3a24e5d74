import type { FakeSpecRow } from '../fakes/fake-cypress.js';
import type { Stack } from './harness.js';
import { STEP } from './steps.js';

export const dayOffset = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Eight applications; `silent` never reports a run. */
export const SEEDED_APPS = [
  'shop-web',
  'back-office',
  'admin',
  'search',
  'payments',
  'mobile-api',
  'docs',
  'silent',
];
/** The day (days before today) that has no report: its grid cells say so. */
export const DAY_WITHOUT_REPORT = 4;
/** How many days of results and reports the morning has. */
export const SEEDED_DAYS = 21;

function status(app: string, daysAgo: number): string {
  if (app === 'payments') return daysAgo % 3 === 0 ? 'failed' : 'passed';
  if (app === 'admin') return daysAgo < 2 ? 'failed' : 'passed';
  if (app === 'mobile-api') return daysAgo % 5 === 1 ? 'failed' : 'passed';
  return 'passed';
}

function rows(): FakeSpecRow[] {
  const list: FakeSpecRow[] = [];
  SEEDED_APPS.filter((app) => app !== 'silent').forEach((app, appIndex) => {
    for (let daysAgo = 0; daysAgo < SEEDED_DAYS; daysAgo += 1) {
      if (app === 'docs' && daysAgo % 2 === 1) continue;
      const run = 100 + SEEDED_DAYS - daysAgo;
      const result = status(app, daysAgo);
      for (const spec of ['checkout', 'search']) {
        list.push({
          project_name: app,
          run_number: run,
          created_at: `${dayOffset(-daysAgo)}T${String(6 + appIndex).padStart(2, '0')}:00:00.000Z`,
          status: spec === 'checkout' ? result : 'passed',
          spec: `cypress/e2e/${spec}.cy.ts`,
          total_tests: 5,
          pass_tests: spec === 'checkout' && result === 'failed' ? 3 : 5,
          fail_tests: spec === 'checkout' && result === 'failed' ? 2 : 0,
          flaky_tests: app === 'search' && daysAgo % 4 === 0 ? 1 : 0,
          spec_duration: 20_000 + appIndex * 1000,
          commit_author_name: 'Ada Lovelace',
          commit_branch: 'main',
        });
      }
    }
  });
  return list;
}

/**
 * A morning after three weeks: the eight applications, their Cypress rows, and a ready report for
 * every day but one (generated through the API, as the daily job does). Returns the apps' ids.
 */
export async function seedMorning(stack: Stack): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const name of SEEDED_APPS) {
    const created = await stack.api<{ id: number }>('/api/apps', {
      method: 'POST',
      body: { name, code: `${name}-code`, pipelineUrl: `https://ci.example.com/${name}` },
    });
    ids.set(name, created.body.data.id);
  }
  stack.cypress.rows = rows();
  const dates = Array.from({ length: SEEDED_DAYS }, (_, i) => dayOffset(-i)).filter(
    (_, i) => i !== DAY_WITHOUT_REPORT,
  );
  for (const date of dates) await stack.api(`/api/e2e_run_report?date=${date}`);
  const deadline = Date.now() + 3 * STEP;
  for (const date of dates) {
    while ((await stack.api(`/api/e2e_run_report?date=${date}`)).status !== 200) {
      if (Date.now() > deadline) throw new Error(`the report of ${date} was not generated`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return ids;
}
