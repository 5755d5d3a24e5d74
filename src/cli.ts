#!/usr/bin/env node
import 'dotenv/config';
// The commands below import their modules when they run.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { withDashboardKey } from './cli/client-key.js';

const USAGE = `Usage: dashboard <command> [options]

Commands:
  serve [--roles api,worker,scheduler]   run the service (roles default to ROLES or all three)
  migrate                                apply database migrations and exit
  jobs list [--json]                     scheduled jobs: schedule, last run, result, next run (via the API)
  jobs run <name> [--wait]               run a job now on the API (names from 'jobs list')
  report [YYYY-MM-DD]                    publish a report request for the date (default today)
  upload FILE... --app CODE [options]    send a CI run's test reports to the dashboard at DASHBOARD_URL
  help [command]                         this text, or the options of one command

'dashboard help <command>' or 'dashboard <command> --help' lists a command's options.
Configuration comes from environment variables (and a .env file); see README.md. The commands
that call the API present DASHBOARD_API_KEY when it is set, else API_SECURITY_KEY.`;

/** Each command's own help; the texts of the bigger commands live beside their code. */
const COMMAND_HELP: Record<string, () => Promise<string>> = {
  serve: async () => `Usage: dashboard serve [--roles api,worker,scheduler]

Runs the service: the roles given (default: ROLES, else all three) in this process.
Configuration comes from environment variables (and a .env file); see README.md.`,
  migrate: async () => `Usage: dashboard migrate

Applies the database migrations (DATABASE_URL) and exits.`,
  report: async () => `Usage: dashboard report [YYYY-MM-DD]

Asks for the report of a date (default today, UTC): on the broker at REDIS_URL, else through the
API at API_BASE_URL with DASHBOARD_API_KEY (else API_SECURITY_KEY).`,
  jobs: async () => (await import('./cli/jobs-command.js')).JOBS_USAGE,
  upload: async () => (await import('./cli/upload-options.js')).UPLOAD_USAGE,
};

const HELP_FLAGS = new Set(['--help', '-h']);

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

const commands: Record<string, (args: string[]) => Promise<void>> = { serve, migrate, jobs, report, upload };

/** Prints the general usage or a command's; undefined when there is no such command. */
async function help(topic: string | undefined): Promise<void> {
  const text = topic === undefined ? USAGE : await COMMAND_HELP[topic]?.();
  if (text === undefined) fail(`unknown command "${topic}"\n\n${USAGE}`, 64);
  process.stdout.write(`${text}\n`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || HELP_FLAGS.has(command)) {
    return help(command === 'help' ? rest[0] : undefined);
  }
  const run = commands[command];
  if (!run) fail(`unknown command "${command}"\n\n${USAGE}`, 64);
  // Options end at `--`: a file called --help after it is a file.
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (options.some((arg) => HELP_FLAGS.has(arg))) return help(command);
  return run(rest);
}

main(process.argv.slice(2)).catch((error: unknown) =>
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
