/** passed / total rounded to 4 decimal places; 0 when there is nothing to divide. */
export function successRate(passed: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((passed / total) * 10_000) / 10_000;
}
