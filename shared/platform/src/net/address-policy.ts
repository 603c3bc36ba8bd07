import { isIP } from 'node:net';

/**
 * Which IP addresses an outbound fetch may reach: public unicast only. The refused ranges are the
 * IANA special-purpose registries (RFC 6890 and its updates) for IPv4 and IPv6; IPv6 is checked
 * as an allow-list (global unicast 2000::/3) because new special ranges keep being carved out of
 * the rest of the space.
 */

interface V4Range {
  base: number;
  bits: number;
  why: string;
}

const v4 = (cidr: string, why: string): V4Range => {
  const [base, bits] = cidr.split('/');
  return { base: ipv4ToInt(base!)!, bits: Number(bits), why };
};

const REFUSED_V4: readonly V4Range[] = [
  v4('0.0.0.0/8', 'unspecified ("this network")'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared carrier-grade NAT'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local (cloud metadata)'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'IETF protocol assignments'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', '6to4 relay anycast'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved (incl. broadcast)'),
];

/** Dotted-quad IPv4 to an unsigned 32-bit number; undefined when not strictly four decimal octets. */
function ipv4ToInt(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    n = n * 256 + octet;
  }
  return n;
}

function intToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function refusedV4(address: string): string | undefined {
  const n = ipv4ToInt(address);
  if (n === undefined) return 'not an IPv4 address';
  for (const r of REFUSED_V4) {
    const mask = r.bits === 0 ? 0 : (0xffffffff << (32 - r.bits)) >>> 0;
    if ((n & mask) >>> 0 === (r.base & mask) >>> 0) return r.why;
  }
  return undefined;
}

/** An IPv6 address as eight 16-bit groups (handles `::` and a trailing dotted IPv4); undefined when malformed. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // A trailing dotted IPv4 ("::ffff:1.2.3.4") is the last two groups written in decimal.
    const n = ipv4ToInt(last);
    if (n === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const known = head.length + rest.length;
  if ([...head, ...rest].some(Number.isNaN)) return undefined;
  if (halves.length === 1 && known !== 8) return undefined;
  if (halves.length === 2 && known > 7) return undefined;
  const zeros = new Array<number>(8 - known).fill(0);
  return halves.length === 2 ? [...head, ...zeros, ...rest] : head;
}

function refusedV6(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return 'not an IPv6 address';
  const embeddedV4 = (hi: number, lo: number) => intToIpv4(((hi << 16) >>> 0) + lo);
  const prefixZero = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::ffff:a.b.c.d reaches the IPv4 host a.b.c.d: judge it as that host.
  if (prefixZero(5) && g[5] === 0xffff) {
    const why = refusedV4(embeddedV4(g[6]!, g[7]!));
    return why ? `IPv4-mapped ${why}` : undefined;
  }
  if (prefixZero(7) && g[7] === 0) return 'unspecified';
  if (prefixZero(7) && g[7] === 1) return 'loopback';
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed an IPv4 destination as well.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    const why = refusedV4(embeddedV4(g[6]!, g[7]!));
    return why ? `NAT64 ${why}` : undefined;
  }
  if (g[0] === 0x2002) {
    const why = refusedV4(embeddedV4(g[1]!, g[2]!));
    return why ? `6to4 ${why}` : undefined;
  }
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'unique local (private)';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if ((first & 0xe000) !== 0x2000) return 'reserved';
  if (first === 0x2001 && g[1]! < 0x0200) return 'IETF protocol assignments (Teredo, ORCHID, benchmarking)';
  if (first === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (first === 0x3fff && g[1]! < 0x1000) return 'documentation';
  return undefined;
}

/** Why the address may not be reached, or undefined for a public unicast address. */
export function refusedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return refusedV4(address);
  if (family === 6) return refusedV6(address);
  return 'not an IP address';
}

export function isPublicAddress(address: string): boolean {
  return refusedAddressReason(address) === undefined;
}
