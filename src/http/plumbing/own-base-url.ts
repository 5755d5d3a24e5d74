import type { AddressInfo } from 'node:net';

/**
 * Where this process reaches its own HTTP listener, from the listening socket's address (the
 * loopback for a wildcard address); undefined while it does not listen (requests injected by tests).
 * Jobs run on demand call back the API process that was asked, with no round trip through a load
 * balancer.
 */
export function ownBaseUrl(address: AddressInfo | string | null): string | undefined {
  if (address === null || typeof address === 'string') return undefined;
  const wildcard = ['0.0.0.0', '::', ''].includes(address.address);
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
