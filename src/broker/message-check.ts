import { TypeCompiler } from '@sinclair/typebox/compiler';
import { CHANNEL_SCHEMAS, type Channel } from '../shared/messages.js';

/** Where the broker says it dropped a message; the process logger fits it. */
export interface BrokerLog {
  warn(object: object, message: string): void;
}

/** Compiled once per process, on first use: most processes subscribe to few channels. */
const checkers = new Map<string, ReturnType<typeof TypeCompiler.Compile>>();

function checkerOf(channel: Channel) {
  let checker = checkers.get(channel);
  if (!checker) {
    checker = TypeCompiler.Compile(CHANNEL_SCHEMAS[channel]);
    checkers.set(channel, checker);
  }
  return checker;
}

const isCatalogued = (channel: string): channel is Channel => Object.hasOwn(CHANNEL_SCHEMAS, channel);

/**
 * PostgreSQL cannot store U+0000 and the API refuses it in every request; a message must not
 * bring it in through the back door.
 */
function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true;
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/**
 * The broker's one check of what arrives on a channel of the catalogue: true when `message`
 * fits the channel's schema; otherwise the drop is logged and the handlers never see it.
 * Channels outside the catalogue (only tests use them) are delivered as they are.
 */
export function acceptMessage(channel: string, message: unknown, log: BrokerLog | undefined): boolean {
  if (!isCatalogued(channel)) return true;
  const checker = checkerOf(channel);
  if (checker.Check(message) && !containsNul(message)) return true;
  const problem = checker.Errors(message).First();
  log?.warn(
    {
      channel,
      problem: problem ? `${problem.path || '/'}: ${problem.message}` : 'contains a NUL character',
    },
    'dropped a broker message that does not fit its channel',
  );
  return false;
}
