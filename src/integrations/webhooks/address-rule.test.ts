import { describe, expect, it } from 'vitest';
import { isInternalAddress } from './address-rule.js';
import { sendWebhook } from './webhook-sender.js';

/** Addresses that reach loopback, link-local, private or no single host; none may be a target. */
const NOT_PUBLIC = [
  // IPv4-compatible, IPv4-translated, NAT64 (well-known and local-use prefixes) around loopback.
  '::7f00:1',
  '::ffff:0:7f00:1',
  '64:ff9b::7f00:1',
  '64:ff9b:1::7f00:1',
  // The local-use NAT64 prefix is private to a network whatever IPv4 address it carries.
  '64:ff9b:1::808:808',
  // 6to4 around loopback and the link-local metadata address.
  '2002:7f00:1::',
  '2002:a9fe:a9fe::',
  // Teredo with a private server, and with a loopback client (stored inverted: 127.0.0.1).
  '2001:0:a00:1::808:808',
  '2001:0:4136:e378:8000:63bf:80ff:fffe',
  'fec0::1',
  'ff02::1',
  '2001:db8::1',
  '100::1',
  // Unassigned space outside 2000::/3.
  '::1:0:0:1',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '192.0.2.10',
  '198.18.0.1',
  '240.0.0.1',
];

const PUBLIC = [
  '8.8.8.8',
  '93.184.216.34',
  '2606:4700::1111',
  '::ffff:8.8.8.8',
  '::808:808',
  '::ffff:0:808:808',
  '64:ff9b::808:808',
  '2002:808:808::1',
  // Teredo: public server 65.54.227.120, public client 8.8.8.8 (inverted f7f7:f7f7).
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
];

describe('webhook address rule: globally routable unicast only', () => {
  it('refuses every address that is not public, also the IPv4 carried by IPv6 forms', () => {
    for (const address of NOT_PUBLIC) expect(isInternalAddress(address), address).toBe(true);
  });

  it('accepts public addresses, also carried by those forms', () => {
    for (const address of PUBLIC) expect(isInternalAddress(address), address).toBe(false);
  });

  it('reads the forms as URLs write them (brackets, dotted IPv4 tails)', () => {
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::ffff:0:127.0.0.1]/',
      'http://[64:ff9b::127.0.0.1]/',
    ]) {
      const host = new URL(url).hostname.slice(1, -1);
      expect(isInternalAddress(host), url).toBe(true);
    }
  });

  it('a delivery to such a target is refused before any connection is made', async () => {
    for (const host of ['[::ffff:0:127.0.0.1]', '[2002:7f00:1::]', '224.0.0.1', '255.255.255.255']) {
      const outcome = await sendWebhook({
        url: `http://${host}:9/hook`,
        body: '{}',
        headers: {},
        timeoutMs: 1000,
        refuseInternal: true,
      });
      expect(outcome, host).toMatchObject({ status: null, failure: 'refused', durationMs: 0 });
    }
  });
});
