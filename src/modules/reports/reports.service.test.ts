import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors.js';
import { parseEnrichments, queueAlerts } from './reports.service.js';

describe('queueAlerts', () => {
  it('flags the spec thresholds: queue above 100, any dead letter, oldest above 5 minutes', () => {
    const calm = { queued: 100, inFlight: 1, scheduledRetries: 2, deadLetters: 0, oldestAgeMs: 300_000 };
    expect(queueAlerts(calm)).toEqual([]);
    expect(queueAlerts({ ...calm, oldestAgeMs: null })).toEqual([]);
    expect(queueAlerts({ ...calm, queued: 101, deadLetters: 2, oldestAgeMs: 300_001 })).toHaveLength(3);
  });
});

describe('parseEnrichments', () => {
  it('defaults every flag to true and takes the given booleans', () => {
    expect(parseEnrichments(undefined)).toEqual({
      includeDetails: true,
      includeAppInfo: true,
      includeManualRuns: true,
    });
    expect(parseEnrichments('{}')).toEqual({
      includeDetails: true,
      includeAppInfo: true,
      includeManualRuns: true,
    });
    expect(parseEnrichments('{"includeAppInfo":false,"includeManualRuns":false}')).toEqual({
      includeDetails: true,
      includeAppInfo: false,
      includeManualRuns: false,
    });
  });

  it.each(['', 'x', '[]', '"a"', '1', 'null', '{"includeDetails":1}', '{"other":true}'])(
    'refuses %j with a detail on the enrichments field',
    (raw) => {
      const error = (() => {
        try {
          parseEnrichments(raw);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details[0]).toMatchObject({
        field: 'enrichments',
        code: 'INVALID_FORMAT',
      });
    },
  );
});
