/** Matchers for IPv4 addresses (four octets of at most 255) and IPv6 addresses (RFC 4291 text forms). */
import { rangesOf, type TextRange } from "./TextRange.js"

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)"
const IPV4 = new RegExp(`(?<![\\d.])${OCTET}(?:\\.${OCTET}){3}(?!\\.?\\d)`, "g")
const IPV6_CANDIDATE = /(?<![0-9A-Fa-f:.])[0-9A-Fa-f:]{2,39}(?:\.\d{1,3}){0,3}(?![0-9A-Za-z:.]?[0-9A-Za-z:])/g

const IPV4_WHOLE = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`)

const ipv4Valid = (text: string): boolean => IPV4_WHOLE.test(text)

const ipv6Valid = (text: string): boolean => {
  let address = text
  let groupsOfV4 = 0
  const lastColon = address.lastIndexOf(":")
  if (address.includes(".")) {
    if (!ipv4Valid(address.slice(lastColon + 1))) return false
    address = address.slice(0, lastColon + 1) + "0:0"
    groupsOfV4 = 2
  }
  const halves = address.split("::")
  if (halves.length > 2) return false
  const groups = halves.flatMap((half) => half === "" ? [] : half.split(":"))
  if (!groups.every((group) => /^[0-9A-Fa-f]{1,4}$/.test(group))) return false
  if (halves.length === 2) return groups.length <= 7 && (groups.length >= 2 || groupsOfV4 > 0 || text === "::1")
  return groups.length === 8
}

/** IPv4 and IPv6 addresses. */
export const ipAddresses = (text: string): Array<TextRange> => [
  ...rangesOf(text, IPV4),
  ...rangesOf(text, IPV6_CANDIDATE, (match) => (match[0].match(/:/g)?.length ?? 0) >= 2 && ipv6Valid(match[0]))
]
