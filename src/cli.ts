#!/usr/bin/env node
import 'dotenv/config';
// The commands below import their modules when they run.
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from './config/config.js';
import { ConfigError } from './config/env-parsers.js';
import { withDashboardKey } from './cli/client-key.js';

const USAGE = `Usage: dashboard <command> [options]

Commands:
  serve [--roles api,worker,scheduler]   run the service (roles default to ROLES or all three)
  migrate                                apply database migrations and exit
  jobs list [--json]                     scheduled jobs: schedule, last run, result, next run (via the API)
  jobs run <name> [--wait]               run a job now on the API (names from 'jobs list')
  report [YYYY-MM-DD]                    publish a report request for the date (default today)

Configuration comes from environment variables (and a .env file); see README.md. The commands
that call the API present DASHBOARD_API_KEY when it is set, else API_SECURITY_KEY.`;

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function configFrom(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 78);
    throw error;
  }
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { roles: { type: 'string' } } });
  const config = configFrom(values.roles ? { ...process.env, ROLES: values.roles } : process.env);
  if (config.apiKeyGenerated) {
    // Printed once, straight to the terminal: the logger must never carry the key.
    process.stdout.write(
      `\nNo API_SECURITY_KEY set: generated one for this run only:\n\n    ${config.apiKey}\n\n` +
        'Send it as the x-api-key header. Set API_SECURITY_KEY to keep a key across restarts.\n\n',
    );
  } else if (config.apiKey.length < 32) {
    process.stderr.write('warning: API_SECURITY_KEY is shorter than 32 characters\n');
  }
  const { startService } = await import('./server.js');
  let service;
  try {
    service = await startService(config);
  } catch (error) {
    // Some settings (push credentials) can only be checked once their files are read at start.
    if (error instanceof ConfigError) fail(error.message, 78);
    throw error;
  }
  if (service.address)
    process.stdout.write(`dashboard ${config.roles.join(',')} listening on ${service.address}\n`);
  const shutdown = (signal: string) => {
    process.stdout.write(`${signal} received, shutting down\n`);
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => fail(`shutdown failed: ${String(error)}`),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

async function migrate(): Promise<void> {
  const config = configFrom(process.env);
  const { migrateToLatest, openDatabase } = await import('./db/database.js');
  const database = openDatabase(config.database);
  try {
    const applied = await migrateToLatest(database.db);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await database.close();
  }
}

async function jobs(args: string[]): Promise<void> {
  const io = { out: (text: string) => console.log(text), err: (text: string) => console.error(text) };
  const { jobsCommand } = await import('./cli/jobs-command.js');
  process.exitCode = await jobsCommand(args, withDashboardKey(configFrom(process.env), process.env), io);
}

async function report(args: string[]): Promise<void> {
  const io = { out: (text: string) => console.log(text), err: (text: string) => console.error(text) };
  const { reportCommand } = await import('./cli/report-command.js');
  process.exitCode = await reportCommand(args, withDashboardKey(configFrom(process.env), process.env), io);
}

async function upload(args: string[]): Promise<void> {
  const io = { out: (text: string) => console.log(text), err: (text: string) => console.error(text) };
  const { uploadCommand } = await import('./cli/upload-command.js');
  process.exitCode = await uploadCommand(args, process.env, io);
}

const [command, ...rest] = process.argv.slice(2);
const commands: Record<string, (args: string[]) => Promise<void>> = { serve, migrate, jobs, report, upload };
const run = command ? commands[command] : undefined;
if (!run) fail(USAGE, command === undefined || command === '--help' ? 0 : 64);
run(rest).catch((error: unknown) =>
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
