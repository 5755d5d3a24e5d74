import { useQueryParam } from './router';
import { todayUtc } from './time';

/** Why a `?date=` cannot be shown, in the words the page puts next to the date field. */
export function dateProblem(value: string, today: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return `“${value}” is not a date (YYYY-MM-DD).`;
  const parsed = new Date(`${value}T00:00:00Z`);
  // Date.parse rolls 2025-02-30 over to March; a real day survives the round trip.
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) {
    return `${value} is not a real date.`;
  }
  if (value > today) return `${value} is in the future; reports exist up to today (${today}).`;
  return undefined;
}

/**
 * The report date of a page, kept in the address. A `?date=` that is not a real day, or lies in the
 * future, gives no `date` but a `problem`: the page says so and shows no other day under that address.
 */
export function useReportDate(): {
  date: string | undefined;
  problem: string | undefined;
  today: string;
  setDate: (date: string) => void;
} {
  const today = todayUtc();
  const [value, setDate] = useQueryParam('date', today);
  const problem = dateProblem(value, today);
  return { date: problem ? undefined : value, problem, today, setDate };
}
