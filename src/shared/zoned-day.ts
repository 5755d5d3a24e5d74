/**
 * Calendar days of a time zone (CRON_TZ) as UTC instants. Written on the runtime's own Intl time-zone
 * data rather than a date library: the service needs only "which day is it there" and "when does
 * that day start", which Intl answers exactly.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building one costs far more than using it. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(timeZone: string, epochMs: number) {
  const fields: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return fields as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(timeZone: string, epochMs: number): number {
  const wall = wallClock(timeZone, epochMs);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `YYYY-MM-DD` of an instant in a zone. */
export function dateInZone(timeZone: string, at: Date): string {
  const wall = wallClock(timeZone, at.getTime());
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/**
 * The first instant of a day in a zone. The second pass settles the days whose offset at midnight
 * differs from the offset at midnight UTC (a daylight-saving change in between). In the few zones
 * where a change skips midnight itself, the day starts at the first wall-clock time that exists.
 */
function startOfDay(timeZone: string, date: string): number {
  const midnightUtc = Date.parse(`${date}T00:00:00.000Z`);
  const guess = midnightUtc - offsetAt(timeZone, midnightUtc);
  return midnightUtc - offsetAt(timeZone, guess);
}

export interface ZonedDay {
  /** The day's date in the zone. */
  date: string;
  /** Its first instant, and the first instant of the next day, as UTC timestamps. */
  startIso: string;
  endIso: string;
}

/** The day of `at` in `timeZone` with its bounds, for "today" counts read from UTC timestamps. */
export function zonedDay(timeZone: string, at: Date = new Date()): ZonedDay {
  const date = dateInZone(timeZone, at);
  const next = new Date(Date.parse(`${date}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    date,
    startIso: new Date(startOfDay(timeZone, date)).toISOString(),
    endIso: new Date(startOfDay(timeZone, next)).toISOString(),
  };
}
