import type { WebhookEvent } from './webhook-payloads.js';

/** How many failing specs a chat message names; the rest are counted ("and N more"). */
export const MAX_SPECS = 10;
const E2E_TYPES: readonly string[] = ['e2e_failure', 'e2e_success'];

/** The context shown next to the message for end-to-end results: app, run and failing specs. */
export interface E2eContext {
  appName?: string;
  runId?: string;
  /** Author of the commit the failing run tested, when known. */
  author?: string;
  /** The first MAX_SPECS names of `data.failingSpecs`. */
  failingSpecs: string[];
  /** How many names `data.failingSpecs` holds in all. */
  failingSpecCount: number;
  /** Why each failing spec fails, when the alert says (`data.failingSpecDetails`): the first MAX_SPECS. */
  details: SpecDetail[];
  /** How many readable entries `data.failingSpecDetails` holds in all. */
  detailCount: number;
  /** Known failures left out of the alert (`data.quarantinedFailingSpecs`): the first MAX_SPECS. */
  knownSpecs: string[];
  knownSpecCount: number;
}

export interface SpecDetail {
  spec: string;
  runUrl?: string;
  error?: string;
  suspects: { number: number; author?: string }[];
}

/** Text worth showing: a string with something other than white space in it. */
const isText = (value: unknown): value is string => typeof value === 'string' && /\S/.test(value);
const text = (value: unknown) => (isText(value) ? value : undefined);

/** A `data.failingSpecDetails` entry as far as it reads; undefined without a spec name. */
function specDetail(entry: unknown): SpecDetail | undefined {
  if (!entry || typeof entry !== 'object') return undefined;
  const item = entry as Record<string, unknown>;
  if (!isText(item.spec)) return undefined;
  const suspects = Array.isArray(item.suspects) ? (item.suspects as unknown[]) : [];
  return {
    spec: item.spec,
    runUrl: httpUrl(item.runUrl),
    error: isText(item.error) ? item.error : undefined,
    suspects: suspects.flatMap((suspect) => {
      const pull = suspect as Record<string, unknown> | null;
      if (!pull || typeof pull.number !== 'number') return [];
      return [{ number: pull.number, author: text(pull.author) }];
    }),
  };
}

/** The first MAX_SPECS readable entries of a list, and how many readable entries it has. */
function firstReadable<T>(value: unknown, read: (entry: unknown) => T | undefined) {
  const shown: T[] = [];
  let count = 0;
  if (!Array.isArray(value)) return { shown, count };
  for (const entry of value as unknown[]) {
    const item = read(entry);
    if (item === undefined) continue;
    count += 1;
    if (shown.length < MAX_SPECS) shown.push(item);
  }
  return { shown, count };
}

/** A spec name: a plain string, or an object naming the spec. */
function specName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return text(entry);
  if (!entry || typeof entry !== 'object') return undefined;
  return text((entry as Record<string, unknown>).spec ?? (entry as Record<string, unknown>).name);
}

export function e2eContext(event: WebhookEvent): E2eContext | undefined {
  if (!E2E_TYPES.includes(event.type)) return undefined;
  const data = event.data ?? {};
  const runId = typeof data.runId === 'number' || isText(data.runId) ? String(data.runId) : undefined;
  const failing = firstReadable(data.failingSpecs, specName);
  const details = firstReadable(data.failingSpecDetails, specDetail);
  const known = firstReadable(data.quarantinedFailingSpecs, specName);
  return {
    appName: text(data.appName),
    runId,
    author: text(data.lastFailureAuthor),
    failingSpecs: failing.shown,
    failingSpecCount: failing.count,
    details: details.shown,
    detailCount: details.count,
    knownSpecs: known.shown,
    knownSpecCount: known.count,
  };
}

/** The value when it is an absolute http(s) URL (anything else, `javascript:` included, is dropped). */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) return undefined;
  return URL.canParse(value) ? value : undefined;
}

export function linkOf(event: WebhookEvent): string | undefined {
  return httpUrl(event.data?.link);
}

/** Cuts to `max` UTF-16 units with an ellipsis, never between the two halves of a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
