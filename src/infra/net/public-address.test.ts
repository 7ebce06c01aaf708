import { describe, expect, it } from 'vitest';
import { isPublicAddress, resolveAllowed } from './public-address.ts';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) =>
    expect(isPublicAddress(ip)).toBe(true),
  );
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
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    'not-an-ip',
  ])('%s is not', (ip) => expect(isPublicAddress(ip)).toBe(false));
});

describe('resolveAllowed', () => {
  it('checks IP literals without DNS, brackets included', async () => {
    await expect(resolveAllowed('[::1]')).rejects.toThrow(/not a public address/);
    await expect(resolveAllowed('127.0.0.1')).rejects.toThrow(/not a public address/);
    expect(await resolveAllowed('8.8.8.8')).toEqual(['8.8.8.8']);
  });
  it('refuses a name that resolves to loopback', async () => {
    await expect(resolveAllowed('localhost')).rejects.toThrow(/not a public address/);
  });
});
