/**
 * Node HTTP agents that connect only where the address rule allows
 * (`domain/outbound`). A host name is resolved by the agent's own `lookup`,
 * which checks every address DNS gives and hands exactly those to the
 * socket: the address checked is the address connected to, so a second DNS
 * answer (rebinding) cannot swap it. A host that is an address literal is
 * checked before the socket is made. A refused call fails with
 * `OutboundRefusedError` and opens no connection.
 *
 * Any client built on `node:http` can use them: the tool-call service does,
 * and `@effect/platform-node`'s `NodeHttpClient` takes them through its
 * `HttpAgent` tag.
 */
import * as Dns from "node:dns"
import * as Http from "node:http"
import * as Https from "node:https"
import type * as Net from "node:net"
import type { Duplex } from "node:stream"
import type { AddressClass } from "../../domain/outbound/AddressClass.js"
import { parseIpAddress } from "../../domain/outbound/IpAddress.js"
import { addressRefusal, type OutboundAllowList } from "../../domain/outbound/OutboundAllowList.js"

/** A connection refused by the address rule, before any socket was opened. */
export class OutboundRefusedError extends Error {
  readonly code = "EPARLEY_OUTBOUND_REFUSED"
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: Exclude<AddressClass, "public">
  ) {
    super(
      `${
        host === address ? host : `${host} resolves to ${address}, which`
      } is a ${reason} address: outbound calls may not reach it`
    )
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | Array<Dns.LookupAddress>,
  family?: number
) => void

/** A `lookup` that resolves `hostname` and refuses it when any of its addresses is refused. */
export const guardedLookup =
  (allowList: OutboundAllowList) => (hostname: string, options: Dns.LookupOptions, callback: LookupCallback): void => {
    Dns.lookup(hostname, { all: true, verbatim: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error !== null) return callback(error, [])
      for (const { address } of addresses) {
        const ip = parseIpAddress(address)
        const refusal = ip === undefined ? "reserved" : addressRefusal(allowList, hostname, ip)
        if (refusal !== undefined) return callback(new OutboundRefusedError(hostname, address, refusal), [])
      }
      if (options.all === true) return callback(null, addresses)
      const first = addresses[0]!
      callback(null, first.address, first.family)
    })
  }

/** The refusal of a host that is an address literal (an IPv6 one with or without brackets), if it is refused. */
export const literalRefusal = (
  allowList: OutboundAllowList,
  host: string | null | undefined
): OutboundRefusedError | undefined => {
  if (host === null || host === undefined) return undefined
  const address = host.replace(/^\[|\]$/g, "")
  const ip = parseIpAddress(address)
  if (ip === undefined) return undefined
  const refusal = addressRefusal(allowList, address, ip)
  return refusal === undefined ? undefined : new OutboundRefusedError(address, address, refusal)
}

type ConnectionCallback = (error: Error | null, stream: Duplex) => void

/** The HTTP and HTTPS agents of one allow-list (keep-alive; every new socket is checked). */
export interface GuardedAgents {
  readonly http: Http.Agent
  readonly https: Https.Agent
}

/** Agents for `allowList`; `options` adds agent options (socket limits, TLS settings). */
export const makeGuardedAgents = (allowList: OutboundAllowList, options: Https.AgentOptions = {}): GuardedAgents => {
  const lookup = guardedLookup(allowList) as unknown as Net.LookupFunction
  const agentOptions = { keepAlive: true, ...options, lookup }
  // Node's agent takes a connection from `createConnection`, or an error through its callback.
  const guarded = <A extends Http.Agent>(agent: A): A => {
    const create = agent.createConnection.bind(agent)
    agent.createConnection = (connect: Http.ClientRequestArgs, callback?: ConnectionCallback) => {
      const refused = literalRefusal(allowList, connect.host)
      if (refused === undefined) return create(connect, callback)
      callback?.(refused, undefined as never)
      return undefined
    }
    return agent
  }
  return { http: guarded(new Http.Agent(agentOptions)), https: guarded(new Https.Agent(agentOptions)) }
}
