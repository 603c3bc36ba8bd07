import { describe, expect, it } from 'vitest';
import { isPublicAddress, refusedAddressReason } from './address-policy.ts';

describe('address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
    ['64:ff9b::a00:1', 'NAT64 private'],
    ['2002:7f00:1::', '6to4 loopback'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::127.0.0.1', 'reserved'],
    ['2001:db8::1', 'documentation'],
  ])('refuses %s (%s)', (address, why) => {
    expect(refusedAddressReason(address)).toContain(why);
  });

  it.each(['93.184.216.34', '172.32.0.1', '100.128.0.1', '8.8.8.8', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '2606:4700::1111'])(
    'allows the public address %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('refuses what is not an IP address', () => {
    expect(isPublicAddress('localhost')).toBe(false);
    expect(isPublicAddress('0x7f000001')).toBe(false);
  });
});
