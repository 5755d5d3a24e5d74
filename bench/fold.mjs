// The report fold alone, many passes over the same rows, to compare two builds of the aggregator
// on a noisy machine (one cold pass, as `npm run bench` prints, moves by tens of percent):
//   node bench/fold.mjs [aggregation module, default dist/src/modules/reports/aggregation.js] [passes]
// Prints the first (cold) pass, the median and the best pass in rows/s, and a digest of the result
// so that two builds can be checked to agree.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_REPORT_DATE, sampleRow } from './report-seed.mjs';

const modulePath =
  process.argv[2] || new URL('../dist/src/modules/reports/aggregation.js', import.meta.url).pathname;
const passes = Number(process.argv[3] ?? 8);
const { createAggregator } = await import(pathToFileURL(resolve(modulePath)).href);
const apps = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, name: `app-${i}` }));
const count = Number(process.env.BENCH_AGGREGATION_ROWS ?? 1_000_000);
// Parsed from JSON as the client yields them (flat strings, not ropes).
const rows = Array.from({ length: count }, (_, i) => JSON.parse(JSON.stringify(sampleRow(i))));

const rates = [];
let result;
for (let pass = 0; pass < passes; pass += 1) {
  const aggregator = createAggregator(apps, BENCH_REPORT_DATE);
  const started = process.hrtime.bigint();
  for (const row of rows) aggregator.add(row);
  result = aggregator.finish();
  rates.push(Math.round(count / (Number(process.hrtime.bigint() - started) / 1e9)));
}
const sorted = [...rates].sort((a, b) => a - b);
const digest = createHash('sha256').update(JSON.stringify(result)).digest('hex').slice(0, 16);
const format = (rate) => rate.toLocaleString('en-US');
process.stdout.write(
  `pure fold, ${count} rows, ${passes} passes: first ${format(rates[0])}, median ` +
    `${format(sorted[Math.floor(sorted.length / 2)])}, best ${format(sorted.at(-1))} rows/s; result ${digest}\n`,
);
