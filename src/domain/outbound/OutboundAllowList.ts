/**
 * The operator's exceptions to the address rule (`PARLEY_TOOL_ALLOWED_HOSTS`):
 * ranges (`10.0.0.0/8`, `127.0.0.1`, `fd00::/8`) whose addresses an outbound
 * call may reach although they are not public, and host names
 * (`ollama.internal`, `*.corp.example`) whose addresses it may reach whatever
 * they are. Self-hosters open their own services this way, tests their
 * loopback servers.
 */
import { Either } from "effect"
import { type AddressClass, classifyAddress, embeddedIpv4 } from "./AddressClass.js"
import { type Cidr, cidrContains, type IpAddress, parseCidr } from "./IpAddress.js"

/** The parsed allow-list. */
export interface OutboundAllowList {
  readonly ranges: ReadonlyArray<Cidr>
  /** Lower-case host names; `*.x` stands for every subdomain of x. */
  readonly hosts: ReadonlyArray<string>
}

/** Nothing allowed beyond public addresses. */
export const emptyAllowList: OutboundAllowList = { ranges: [], hosts: [] }

const HOST = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/

/** The allow-list from its comma-separated text, or the first entry that is neither a range nor a host name. */
export const parseAllowList = (text: string): Either.Either<OutboundAllowList, string> => {
  const ranges: Array<Cidr> = []
  const hosts: Array<string> = []
  for (const raw of text.split(",")) {
    const entry = raw.trim().toLowerCase()
    if (entry === "") continue
    const range = parseCidr(entry)
    if (range !== undefined) ranges.push(range)
    else if (!entry.includes("/") && HOST.test(entry)) hosts.push(entry)
    else return Either.left(`"${raw.trim()}" is neither a CIDR range nor a host name`)
  }
  return Either.right({ ranges, hosts })
}

/** Whether a host name is one the list names (exactly, or under a `*.` entry). */
export const hostAllowed = (list: OutboundAllowList, hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/\.$/, "")
  return list.hosts.some((entry) => entry.startsWith("*.") ? host.endsWith(entry.slice(1)) : host === entry)
}

/**
 * Why a call to `address` (reached through `hostname`) is refused, or
 * `undefined` when it may go: public addresses always, others when the list
 * names the host or a range holding the address (or the IPv4 address it carries).
 */
export const addressRefusal = (
  list: OutboundAllowList,
  hostname: string,
  address: IpAddress
): Exclude<AddressClass, "public"> | undefined => {
  const kind = classifyAddress(address)
  if (kind === "public" || hostAllowed(list, hostname)) return undefined
  const inner = embeddedIpv4(address)
  const listed = list.ranges.some((range) =>
    cidrContains(range, address) || (inner !== undefined && cidrContains(range, inner))
  )
  return listed ? undefined : kind
}
