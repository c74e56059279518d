/**
 * The undici dispatcher LLM calls go through: keep-alive connections made
 * only where the outbound address rule allows (the HTTP tools' rule,
 * `providers/outbound/GuardedAgents.ts`): a host name is resolved by the
 * guarded `lookup`, which refuses a loopback, private, link-local or
 * metadata address unless `PARLEY_TOOL_ALLOWED_HOSTS` opens it, and connects
 * to exactly the address it checked; an address literal is checked before
 * the socket. undici rather than `node:http` because it is the faster client
 * (about a millisecond a call on this machine: bench/providers).
 */
import { Agent, buildConnector } from "@effect/platform-node/Undici"
import type { OutboundAllowList } from "../../domain/outbound/OutboundAllowList.js"
import { guardedLookup, literalRefusal } from "../outbound/GuardedAgents.js"

/** A dispatcher for `allowList`. */
export const makeLlmDispatcher = (allowList: OutboundAllowList): Agent => {
  const connector = buildConnector({ lookup: guardedLookup(allowList) as never })
  return new Agent({
    keepAliveTimeout: 30_000,
    connect: (options, callback) => {
      const refused = literalRefusal(allowList, options.hostname)
      return refused === undefined ? connector(options, callback) : callback(refused, null)
    }
  })
}
