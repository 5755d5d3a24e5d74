import { describe, expect, it } from 'vitest';
import { queueAlerts } from './report-queue.service.js';

describe('queueAlerts', () => {
  it('flags the spec thresholds: queue above 100, any dead letter, oldest above 5 minutes', () => {
    const calm = {
      queued: 100,
      inFlight: 1,
      scheduledRetries: 2,
      deadLetters: 0,
      oldestAgeMs: 300_000,
      staleRepublished: 0,
    };
    expect(queueAlerts(calm)).toEqual([]);
    expect(queueAlerts({ ...calm, oldestAgeMs: null })).toEqual([]);
    expect(queueAlerts({ ...calm, queued: 101, deadLetters: 2, oldestAgeMs: 300_001 })).toHaveLength(3);
  });
});
