import { Cron } from 'croner';

/**
 * Whether croner accepts the expression (5 or 6 fields). Used by the configuration (a typo in a
 * schedule stops boot) and by request validation (an app's trigger schedule).
 */
export function isValidCron(expression: string, timezone = 'UTC'): boolean {
  try {
    new Cron(expression, { paused: true, timezone }).stop();
    return true;
  } catch {
    return false;
  }
}
