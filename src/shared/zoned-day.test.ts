import { describe, expect, it } from 'vitest';
import { dateInZone, zonedDay } from './zoned-day.js';

describe('zonedDay', () => {
  it('is the UTC day in UTC', () => {
    expect(zonedDay('UTC', new Date('2025-03-01T23:59:59.999Z'))).toEqual({
      date: '2025-03-01',
      startIso: '2025-03-01T00:00:00.000Z',
      endIso: '2025-03-02T00:00:00.000Z',
    });
  });

  it('follows the zone across UTC midnight, both ways', () => {
    // 23:30 UTC is already the next day in Paris (UTC+1 in winter) and still the same day in New York.
    const at = new Date('2025-01-15T23:30:00.000Z');
    expect(zonedDay('Europe/Paris', at)).toEqual({
      date: '2025-01-16',
      startIso: '2025-01-15T23:00:00.000Z',
      endIso: '2025-01-16T23:00:00.000Z',
    });
    expect(zonedDay('America/New_York', at)).toEqual({
      date: '2025-01-15',
      startIso: '2025-01-15T05:00:00.000Z',
      endIso: '2025-01-16T05:00:00.000Z',
    });
  });

  it('gives a day of 23 or 25 hours when daylight-saving time starts or ends', () => {
    const spring = zonedDay('Europe/Paris', new Date('2025-03-30T12:00:00.000Z'));
    expect(spring).toEqual({
      date: '2025-03-30',
      startIso: '2025-03-29T23:00:00.000Z',
      endIso: '2025-03-30T22:00:00.000Z',
    });
    const autumn = zonedDay('Europe/Paris', new Date('2025-10-26T12:00:00.000Z'));
    expect(Date.parse(autumn.endIso) - Date.parse(autumn.startIso)).toBe(25 * 3_600_000);
    expect(autumn.startIso).toBe('2025-10-25T22:00:00.000Z');
  });

  it('handles zones with half-hour offsets and east of UTC+12', () => {
    expect(zonedDay('Asia/Kolkata', new Date('2025-06-01T20:00:00.000Z'))).toMatchObject({
      date: '2025-06-02',
      startIso: '2025-06-01T18:30:00.000Z',
    });
    expect(dateInZone('Pacific/Kiritimati', new Date('2025-06-01T11:00:00.000Z'))).toBe('2025-06-02');
  });
});
