import { describe, expect, it } from 'vitest';
import { createResponseCache, matchesIfNoneMatch } from './response-cache.js';

const answer = (body: string, tables: string[] = ['todos']) => ({
  body,
  contentType: 'application/json; charset=utf-8',
  tables,
  route: '/api/to_do_list',
});

describe('response cache', () => {
  it('does not keep an answer read while an invalidation happened', () => {
    const cache = createResponseCache({ ttlMs: 60_000 });
    const ticket = cache.ticket();
    cache.invalidate(['todos']);
    const entry = cache.store('/api/to_do_list', ticket, answer('old'));
    expect(entry.etag).toMatch(/^"/);
    expect(cache.get('/api/to_do_list')).toBeUndefined();
    cache.store('/api/to_do_list', cache.ticket(), answer('new'));
    expect(cache.get('/api/to_do_list')?.body.toString()).toBe('new');
  });

  it('drops only the entries read from a written table; `*` drops all', () => {
    const cache = createResponseCache({ ttlMs: 60_000 });
    cache.store('/a', cache.ticket(), answer('a', ['apps', 'e2e_manual_runs']));
    cache.store('/t', cache.ticket(), answer('t', ['todos']));
    cache.invalidate(['e2e_manual_runs']);
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.get('/t')?.body.toString()).toBe('t');
    cache.invalidate(['*']);
    expect(cache.size).toBe(0);
  });

  it('expires entries after the TTL and evicts the oldest beyond its size', () => {
    let clock = Date.parse('2025-01-01T10:00:00.000Z');
    const cache = createResponseCache({ ttlMs: 1000, maxEntries: 2, now: () => clock });
    cache.store('/1', cache.ticket(), answer('1'));
    cache.store('/2', cache.ticket(), answer('2'));
    cache.store('/3', cache.ticket(), answer('3'));
    expect(cache.get('/1')).toBeUndefined();
    expect(cache.get('/3')?.body.toString()).toBe('3');
    clock += 1000;
    expect(cache.get('/3')).toBeUndefined();
  });

  it('keeps nothing when its TTL is 0', () => {
    const cache = createResponseCache({ ttlMs: 0 });
    expect(cache.enabled).toBe(false);
    cache.store('/1', cache.ticket(), answer('1'));
    expect(cache.get('/1')).toBeUndefined();
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    expect(matchesIfNoneMatch(undefined, '"x"')).toBe(false);
    expect(matchesIfNoneMatch('"x"', '"x"')).toBe(true);
    expect(matchesIfNoneMatch('"a", W/"x"', '"x"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"x"')).toBe(true);
    expect(matchesIfNoneMatch('"y"', '"x"')).toBe(false);
  });
});
