/**
 * IP addresses as numbers, so a rule about a range is one comparison: an
 * IPv4 address is 32 bits, an IPv6 address 128 (as `bigint`). Parsing takes
 * the canonical forms DNS answers and the WHATWG URL parser produce (dotted
 * quads; IPv6 with `::` and an optional dotted IPv4 tail); anything else is
 * not an address, which callers treat as a host name.
 */

/** An address of either family. */
export type IpAddress =
  | { readonly family: 4; readonly value: bigint }
  | { readonly family: 6; readonly value: bigint }

/** A range: the addresses whose first `bits` bits equal those of `base`. */
export interface Cidr {
  readonly family: 4 | 6
  readonly base: bigint
  readonly bits: number
}

const OCTET = /^(0|[1-9][0-9]{0,2})$/
const HEXTET = /^[0-9a-fA-F]{1,4}$/

const parseIpv4Value = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  let value = 0n
  for (const part of parts) {
    if (!OCTET.test(part)) return undefined
    const octet = Number(part)
    if (octet > 255) return undefined
    value = (value << 8n) | BigInt(octet)
  }
  return value
}

const parseHextets = (text: string): Array<bigint> | undefined => {
  if (text === "") return []
  const groups = text.split(":")
  const values: Array<bigint> = []
  for (const [index, group] of groups.entries()) {
    if (index === groups.length - 1 && group.includes(".")) {
      const v4 = parseIpv4Value(group)
      if (v4 === undefined) return undefined
      values.push(v4 >> 16n, v4 & 0xffffn)
    } else if (HEXTET.test(group)) {
      values.push(BigInt(parseInt(group, 16)))
    } else {
      return undefined
    }
  }
  return values
}

const parseIpv6Value = (text: string): bigint | undefined => {
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const head = parseHextets(halves[0]!)
  const tail = halves.length === 2 ? parseHextets(halves[1]!) : []
  if (head === undefined || tail === undefined) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const all = [...head, ...Array<bigint>(missing).fill(0n), ...tail]
  return all.reduce((value, hextet) => (value << 16n) | hextet, 0n)
}

/** The address `text` spells (IPv6 may be in brackets, as in a URL), or `undefined` for a host name. */
export const parseIpAddress = (text: string): IpAddress | undefined => {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text
  if (bare.includes(":")) {
    const value = parseIpv6Value(bare)
    return value === undefined ? undefined : { family: 6, value }
  }
  const value = parseIpv4Value(bare)
  return value === undefined ? undefined : { family: 4, value }
}

const width = (family: 4 | 6): number => (family === 4 ? 32 : 128)

/** A range in CIDR notation (`10.0.0.0/8`, `fd00::/8`); a bare address is a range of one. */
export const parseCidr = (text: string): Cidr | undefined => {
  const [address, bitsText, ...rest] = text.trim().split("/")
  if (rest.length > 0 || address === undefined) return undefined
  const ip = parseIpAddress(address)
  if (ip === undefined) return undefined
  const bits = bitsText === undefined ? width(ip.family) : /^[0-9]{1,3}$/.test(bitsText) ? Number(bitsText) : -1
  if (bits < 0 || bits > width(ip.family)) return undefined
  return { family: ip.family, base: ip.value, bits }
}

/** Whether `address` lies in `range` (same family only). */
export const cidrContains = (range: Cidr, address: IpAddress): boolean => {
  if (range.family !== address.family) return false
  const shift = BigInt(width(range.family) - range.bits)
  return (range.base >> shift) === (address.value >> shift)
}

/** A range from its text; for the fixed tables of this folder, where a typo must fail loudly. */
export const cidr = (text: string): Cidr => {
  const range = parseCidr(text)
  if (range === undefined) throw new Error(`not a CIDR range: ${text}`)
  return range
}

/** The IPv4 address of `value`'s low 32 bits. */
export const ipv4 = (value: bigint): IpAddress => ({ family: 4, value: value & 0xffffffffn })

/** An address as text: a dotted quad, or eight hextets (not compressed). */
export const formatIpAddress = (address: IpAddress): string =>
  address.family === 4
    ? [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join(".")
    : Array.from({ length: 8 }, (_, index) => ((address.value >> BigInt(112 - index * 16)) & 0xffffn).toString(16))
      .join(":")
