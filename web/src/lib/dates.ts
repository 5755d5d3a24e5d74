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
