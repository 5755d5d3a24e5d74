import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Loopback, private, carrier-grade NAT, link-local and unspecified ranges. A webhook URL is
 * chosen by whoever holds the API key; without this rule a production server could be made to
 * POST into its own network (metadata services, admin ports).
 */
const internalRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  internalRanges.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  internalRanges.addSubnet(network, prefix, 'ipv6');
}

/** True for an address in a loopback, private or link-local range (IPv4-mapped IPv6 included). */
export function isInternalAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return internalRanges.check(address, 'ipv4');
  if (version !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return internalRanges.check(mapped[1]!, 'ipv4');
  return internalRanges.check(address, 'ipv6');
}

/** The host of a URL without IPv6 brackets, as `isIP` and `dns.lookup` want it. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

const RESOLVE_TIMEOUT_MS = 5000;

/**
 * Whether the host of `url` is (or resolves to) an internal address. A host that does not
 * resolve now is not internal as far as anyone can tell; the delivery checks again before it
 * connects, so accepting it here opens nothing.
 */
export async function resolvesToInternalAddress(url: URL): Promise<boolean> {
  const host = bareHost(url);
  if (isIP(host) !== 0) return isInternalAddress(host);
  let timer: NodeJS.Timeout | undefined;
  try {
    const addresses = await Promise.race([
      lookup(host, { all: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('lookup timed out')), RESOLVE_TIMEOUT_MS);
      }),
    ]);
    return addresses.some((entry) => isInternalAddress(entry.address));
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
