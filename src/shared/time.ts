/** Every timestamp leaves the service as `YYYY-MM-DDTHH:mm:ss.sssZ` (UTC, milliseconds). */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Today's date in UTC as `YYYY-MM-DD`. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` naming a day that exists (`2025-02-30` does not). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const INSTANT_PATTERN =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Parses an ISO 8601 date (`2025-03-01`, midnight UTC) or date-time (zone optional, UTC assumed)
 * and returns it normalised, or undefined when it is not a real instant. Written by hand because
 * `Date.parse` accepts many non-ISO forms and silently rolls `02-30` over to March.
 */
export function parseIsoInstant(value: string): string | undefined {
  const match = INSTANT_PATTERN.exec(value.trim());
  if (!match) return undefined;
  const [, day, hours = '00', minutes = '00', seconds = '00', fraction = '', zone = 'Z'] = match;
  if (!day || !isCalendarDate(day)) return undefined;
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return undefined;
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  const normalisedZone = zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const zoneMatch = /^[+-](\d{2}):(\d{2})$/.exec(normalisedZone);
  if (zoneMatch && (Number(zoneMatch[1]) > 23 || Number(zoneMatch[2]) > 59)) return undefined;
  const parsed = new Date(`${day}T${hours}:${minutes}:${seconds}.${millis}${normalisedZone}`);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString();
}

/** Adds whole days to a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  const base = new Date(`${date}T00:00:00.000Z`);
  base.setUTCDate(base.getUTCDate() + days);
  return base.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` of an instant in a time zone (CRON_TZ). */
export function dateInZone(at: Date, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
