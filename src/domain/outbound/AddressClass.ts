/**
 * Which addresses an outbound call (an HTTP tool, an LLM base URL) may reach
 * on its own: only public unicast ones. Everything that leads into the
 * node's own networks is refused: loopback, private and shared (CGNAT)
 * ranges, link-local (with the cloud metadata address 169.254.169.254),
 * multicast, broadcast, unspecified, unique-local and site-local IPv6, the
 * reserved, documentation and benchmarking ranges, and every IPv6 form that
 * carries an IPv4 address inside (mapped `::ffff:a.b.c.d`, compatible
 * `::a.b.c.d`, SIIT, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`), judged by the
 * IPv4 address it carries. Teredo and the local-use NAT64 prefix are refused
 * whole: their embedded address is not one a server should be sent to.
 */
import { type Cidr, cidr, cidrContains, type IpAddress, ipv4 } from "./IpAddress.js"

/** Why an address is not public, or `public`. */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "shared"
  | "link-local"
  | "multicast"
  | "broadcast"
  | "unspecified"
  | "unique-local"
  | "reserved"

const v4Ranges: ReadonlyArray<readonly [Cidr, AddressClass]> = [
  [cidr("0.0.0.0/32"), "unspecified"],
  [cidr("0.0.0.0/8"), "reserved"], // "this network"
  [cidr("10.0.0.0/8"), "private"],
  [cidr("100.64.0.0/10"), "shared"], // carrier-grade NAT
  [cidr("127.0.0.0/8"), "loopback"],
  [cidr("169.254.0.0/16"), "link-local"], // with 169.254.169.254, the metadata service
  [cidr("172.16.0.0/12"), "private"],
  [cidr("192.0.0.0/24"), "reserved"], // IETF protocol assignments
  [cidr("192.0.2.0/24"), "reserved"], // documentation
  [cidr("192.88.99.0/24"), "reserved"], // 6to4 relay anycast
  [cidr("192.168.0.0/16"), "private"],
  [cidr("198.18.0.0/15"), "reserved"], // benchmarking
  [cidr("198.51.100.0/24"), "reserved"], // documentation
  [cidr("203.0.113.0/24"), "reserved"], // documentation
  [cidr("224.0.0.0/4"), "multicast"],
  [cidr("255.255.255.255/32"), "broadcast"],
  [cidr("240.0.0.0/4"), "reserved"]
]

const v6Ranges: ReadonlyArray<readonly [Cidr, AddressClass]> = [
  [cidr("::/128"), "unspecified"],
  [cidr("::1/128"), "loopback"],
  [cidr("64:ff9b:1::/48"), "reserved"], // local-use NAT64
  [cidr("100::/64"), "reserved"], // discard
  [cidr("2001::/32"), "reserved"], // Teredo
  [cidr("2001:db8::/32"), "reserved"], // documentation
  [cidr("2001::/23"), "reserved"], // IETF protocol assignments
  [cidr("fc00::/7"), "unique-local"], // with fd00::/8
  [cidr("fe80::/10"), "link-local"],
  [cidr("fec0::/10"), "unique-local"], // site-local, deprecated
  [cidr("ff00::/8"), "multicast"]
]

/** IPv6 prefixes whose last 32 bits are an IPv4 address. */
const embeddingLast32: ReadonlyArray<Cidr> = [
  cidr("::ffff:0:0/96"), // mapped
  cidr("::/96"), // compatible (deprecated)
  cidr("::ffff:0:0:0/96"), // SIIT
  cidr("64:ff9b::/96") // NAT64
]
const sixToFour = cidr("2002::/16")

const lookUp = (ranges: ReadonlyArray<readonly [Cidr, AddressClass]>, address: IpAddress): AddressClass =>
  ranges.find(([range]) => cidrContains(range, address))?.[1] ?? "public"

/** The IPv4 address an IPv6 address carries (mapped, compatible, SIIT, NAT64, 6to4), if any. */
export const embeddedIpv4 = (address: IpAddress): IpAddress | undefined => {
  if (address.family === 4) return undefined
  if (address.value <= 1n) return undefined // :: and ::1 are themselves, not 0.0.0.0 and 0.0.0.1
  if (embeddingLast32.some((range) => cidrContains(range, address))) return ipv4(address.value)
  if (cidrContains(sixToFour, address)) return ipv4(address.value >> 80n)
  return undefined
}

/** The class of an address; an IPv6 address carrying an IPv4 one takes the IPv4 address's class. */
export const classifyAddress = (address: IpAddress): AddressClass => {
  if (address.family === 4) return lookUp(v4Ranges, address)
  const inner = embeddedIpv4(address)
  return inner === undefined ? lookUp(v6Ranges, address) : lookUp(v4Ranges, inner)
}
