import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * A webhook URL is chosen by whoever holds the API key; without this rule a production server
 * could be made to POST into its own network (metadata services, admin ports). Only globally
 * routable unicast addresses pass. The ranges come from ipaddr.js's classification (IANA's
 * special-purpose registries); what is written here is only how to read the IPv4 address that
 * some IPv6 forms carry, because a router or relay may deliver to that address instead.
 */

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

// IANA allocates global unicast IPv6 only from 2000::/3; the rest (other than the forms that
// embed an IPv4 address, read below) is reserved or special-purpose.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
// NAT64's well-known prefix (RFC 6052) puts the IPv4 address in the last 32 bits. Its local-use
// sibling 64:ff9b:1::/48 (RFC 8215) is private to a network by definition and never passes.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
// IPv4-compatible addresses (::a.b.c.d, deprecated by RFC 4291, still routed by some stacks).
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

const v4FromWords = (high: number, low: number): IPv4 =>
  new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

const isPublicV4 = (address: IPv4): boolean => address.range() === 'unicast';

/**
 * The IPv4 addresses an IPv6 address stands for, all of which must be public; undefined when it
 * carries none. Teredo names two: the relay server and the client (stored inverted, RFC 4380).
 */
function embeddedV4(address: IPv6): IPv4[] | undefined {
  const words = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4FromWords(words[6]!, words[7]!)];
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) ? [v4FromWords(words[6]!, words[7]!)] : [];
    case '6to4':
      return [v4FromWords(words[1]!, words[2]!)];
    case 'teredo':
      return [v4FromWords(words[2]!, words[3]!), v4FromWords(~words[6]! & 0xffff, ~words[7]! & 0xffff)];
    default:
      return address.match(IPV4_COMPATIBLE) ? [v4FromWords(words[6]!, words[7]!)] : undefined;
  }
}

function isPublicV6(address: IPv6): boolean {
  const carried = embeddedV4(address);
  if (carried) return carried.length > 0 && carried.every(isPublicV4);
  return address.range() === 'unicast' && address.match(GLOBAL_UNICAST_V6);
}

/**
 * True for an IP address that is not globally routable unicast: loopback, private, link-local,
 * site-local, multicast, broadcast, reserved, documentation, and IPv6 forms whose embedded IPv4
 * address is one of those. False for text that is not an IP address.
 */
export function isInternalAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  let parsed: IPv4 | IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    // Node calls it an address but the library cannot read it: refuse rather than guess.
    return true;
  }
  return parsed.kind() === 'ipv4' ? !isPublicV4(parsed as IPv4) : !isPublicV6(parsed as IPv6);
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
