import { PERIODS, usePeriod } from './useTrends';

/** 14 or 30 days for the grid and the chart, kept in the address (`?days=`). */
export function PeriodChoice({ days }: { days: number }) {
  const [, setDays] = usePeriod();
  return (
    <div className="segmented" role="group" aria-label="Period of the grid and the trend">
      {PERIODS.map((n) => (
        <button key={n} type="button" aria-pressed={days === n} onClick={() => setDays(n)}>
          {n} days
        </button>
      ))}
    </div>
  );
}
