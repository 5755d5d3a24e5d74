import { readFileSync, writeFileSync } from 'node:fs';
import { formattedConfigTable, README, withTable } from './config-table.js';

writeFileSync(README, withTable(readFileSync(README, 'utf8'), await formattedConfigTable()));
process.stdout.write('README.md: configuration table written\n');
