import { describe, expect, it } from 'vitest';
import { ownBaseUrl } from './own-base-url.js';

describe('ownBaseUrl', () => {
  it('reaches a wildcard listener through the loopback and keeps a named address', () => {
    expect(ownBaseUrl({ address: '0.0.0.0', family: 'IPv4', port: 3000 })).toBe('http://127.0.0.1:3000');
    expect(ownBaseUrl({ address: '::', family: 'IPv6', port: 3001 })).toBe('http://127.0.0.1:3001');
    expect(ownBaseUrl({ address: '10.1.2.3', family: 'IPv4', port: 80 })).toBe('http://10.1.2.3:80');
    expect(ownBaseUrl({ address: '::1', family: 'IPv6', port: 8080 })).toBe('http://[::1]:8080');
  });

  it('is undefined while nothing listens, or for a pipe', () => {
    expect(ownBaseUrl(null)).toBeUndefined();
    expect(ownBaseUrl('/tmp/dashboard.sock')).toBeUndefined();
  });
});
