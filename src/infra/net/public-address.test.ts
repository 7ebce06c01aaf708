import { describe, expect, it } from 'vitest';
import { BlockedAddressError, isPublicAddress, operatorPolicy, resolveAllowed } from './public-address.ts';
import { parseAllowedNetworks } from '../../allowed-networks.ts';

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808', // NAT64 of a public address (DNS64 networks)
    '2002:808:808::1', // 6to4 of a public address
  ])('%s is public', (ip) => expect(isPublicAddress(ip)).toBe(true));

  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    // IPv4-compatible (::/96): ipaddr.js calls these unicast.
    '::127.0.0.1',
    '::7f00:1',
    '::a00:1',
    '::808:808',
    // NAT64 and 6to4 embedding a private IPv4 address; the local-use NAT64 prefix.
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::1',
    '2002:a00:1::1',
    '2002:c0a8:101::1',
    // Teredo, documentation, other IETF blocks, and anything outside 2000::/3.
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:db8::1',
    '2001:2::1',
    '3fff::1',
    '100::1',
    '4000::1',
    // Non-canonical IPv4 forms are not addresses here (URL parsing and getaddrinfo make them dotted first).
    '0x7f.0.0.1',
    '0177.0.0.1',
    '2130706433',
    '127.1',
    'not-an-ip',
  ])('%s is not', (ip) => expect(isPublicAddress(ip)).toBe(false));
});

describe('resolveAllowed', () => {
  it('checks IP literals without DNS, brackets included', async () => {
    await expect(resolveAllowed('[::1]')).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(resolveAllowed('[::7f00:1]')).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(resolveAllowed('127.0.0.1')).rejects.toBeInstanceOf(BlockedAddressError);
    expect(await resolveAllowed('8.8.8.8')).toEqual(['8.8.8.8']);
  });

  it('refuses decimal, octal and hex host forms once a URL has made them dotted', async () => {
    for (const u of ['http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://[::127.0.0.1]/'])
      await expect(resolveAllowed(new URL(u).hostname)).rejects.toBeInstanceOf(BlockedAddressError);
  });

  it('refuses a name that resolves to loopback, or not at all, with a message that names no address', async () => {
    for (const host of ['localhost', 'no-such-host.invalid']) {
      const err = await resolveAllowed(host).catch((e: Error) => e);
      expect(err).toBeInstanceOf(BlockedAddressError);
      expect((err as Error).message).toBe('the host is not allowed');
    }
  });
});

describe('operator allowlist', () => {
  const allowed = parseAllowedNetworks(['10.0.0.0/8', '192.168.1.5', 'fd00::/8', 'MinIO.internal.']);
  const policy = operatorPolicy(allowed);

  it('allows its networks, single addresses and host names, plus public addresses', () => {
    expect(policy('10.1.2.3')).toBe(true);
    expect(policy('::ffff:10.1.2.3')).toBe(true);
    expect(policy('192.168.1.5')).toBe(true);
    expect(policy('fd00::5')).toBe(true);
    expect(policy('172.17.0.2', 'minio.internal')).toBe(true);
    expect(policy('8.8.8.8')).toBe(true);
  });

  it('allows nothing else', () => {
    expect(policy('192.168.1.6')).toBe(false);
    expect(policy('127.0.0.1')).toBe(false);
    expect(policy('172.17.0.2', 'other.internal')).toBe(false);
    expect(parseAllowedNetworks([]).empty).toBe(true);
    expect(operatorPolicy(parseAllowedNetworks(['', ' ']))('10.0.0.1')).toBe(false);
  });

  it('refuses an entry that is neither a network nor a host name', () => {
    expect(() => parseAllowedNetworks(['10.0.0.0/33'])).toThrow();
    expect(() => parseAllowedNetworks(['http://x/'])).toThrow();
  });

  it('reaches a loopback name only when allowed', async () => {
    await expect(resolveAllowed('127.0.0.1', isPublicAddress)).rejects.toBeInstanceOf(BlockedAddressError);
    expect(await resolveAllowed('127.0.0.1', operatorPolicy(parseAllowedNetworks(['127.0.0.1/32'])))).toEqual([
      '127.0.0.1',
    ]);
  });
});
