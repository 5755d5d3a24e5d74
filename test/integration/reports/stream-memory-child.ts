// Child process of stream-memory.test.ts: streams the answer at FAKE_URL through the real
// client into the aggregator under a small heap limit, then prints the totals as JSON.
import { createCypressClient } from '../../../src/integrations/cypress/cypress-client.js';
import { createAggregator } from '../../../src/modules/reports/aggregation.js';

const apps = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, name: `app-${i}` }));
const aggregator = createAggregator(apps, '2025-03-15');
const client = createCypressClient({ baseUrl: process.env.FAKE_URL!, timeoutMs: 30_000 });
for await (const row of client.specDetails({
  startDate: '2025-03-01',
  endDate: '2025-03-15',
  projects: ['app-0'],
})) {
  aggregator.add(row);
}
const { totals, details } = aggregator.finish();
const specs = details.reduce((sum, detail) => sum + detail.specs.length, 0);
process.stdout.write(`${JSON.stringify({ rows: aggregator.rowsSeen, runs: totals.totalRuns, specs })}\n`);
