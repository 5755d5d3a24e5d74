// Reading `created_at` is the costliest step of folding a row: the form the service sends is read
// with integer arithmetic, anything else goes through Date.

/** The decimal number of `count` digits at `from`, or NaN when one of them is not a digit. */
const digits = (text: string, from: number, count: number) => {
  let value = 0;
  for (let i = from; i < from + count; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value;
};

/** Days from 1970-01-01 to a proleptic Gregorian date (integer arithmetic, no Date object). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** Epoch ms of a canonical instant, read digit by digit (far cheaper than Date.parse per row). */
function epochMsOf(instant: string): number {
  const days = daysFromCivil(digits(instant, 0, 4), digits(instant, 5, 2), digits(instant, 8, 2));
  const seconds = digits(instant, 11, 2) * 3600 + digits(instant, 14, 2) * 60 + digits(instant, 17, 2);
  return (days * 86_400 + seconds) * 1000 + digits(instant, 20, 3);
}

/** The separators of the form the service sends, `YYYY-MM-DDTHH:MM:SS.mmmZ`, at their positions. */
const hasCanonicalShape = (text: string) =>
  text.length === 24 &&
  text.charCodeAt(4) === 45 &&
  text.charCodeAt(7) === 45 &&
  text.charCodeAt(10) === 84 &&
  text.charCodeAt(13) === 58 &&
  text.charCodeAt(16) === 58 &&
  text.charCodeAt(19) === 46 &&
  text.charCodeAt(23) === 90;

/** Epoch ms of a row's `created_at`, or NaN when it is not an instant. */
export function epochOf(value: unknown): number {
  // Fast path: parsing every row through Date costs more than the rest of the fold together.
  // The digits are checked while they are read (a non-digit yields NaN), so the canonical form
  // costs one pass over the text; anything else goes through Date.
  if (typeof value === 'string' && hasCanonicalShape(value)) {
    const epochMs = epochMsOf(value);
    if (epochMs === epochMs) return epochMs;
  }
  if (typeof value !== 'string' && typeof value !== 'number') return NaN;
  return new Date(value).getTime();
}
