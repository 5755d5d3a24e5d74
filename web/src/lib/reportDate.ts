import { useQueryParam } from './router';
import { todayUtc } from './time';
import { dateProblem } from './dates';

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
