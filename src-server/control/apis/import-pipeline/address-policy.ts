import { BlockList, isIP } from 'node:net';

/**
 * Addresses an import from a URL must not reach without the admin's explicit confirmation: loopback, private,
 * link-local (cloud metadata services live there), carrier-grade NAT, unique-local IPv6 and the like. Without
 * this, "import from a URL" would let anyone with Apis.Import probe the admin's network from the server.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2002::', 16],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** True for an IP address that is not a public unicast address (see above). */
export function isNonPublicAddress(address: string): boolean {
  const mapped = MAPPED_IPV4.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
