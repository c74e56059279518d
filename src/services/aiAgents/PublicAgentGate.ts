/**
 * Who may send a public turn to a live agent (`POST
 * /v1/public/ai-agents/{public_token}/turn`), checked in this order:
 *
 * 1. The public token names a published agent's live version (looked up on
 *    every request, `PublicAgents.byToken`): unknown, rotated or never
 *    published is a 404 `PublicAgentNotFound`.
 * 2. The request's `Origin` must be one of the agent's embed
 *    `allowedOrigins` (or the list is `["*"]`, the default): otherwise a 403.
 *    A request without `Origin` (not sent by a page) passes only the wildcard.
 * 3. The workspace's agent rate limits (`/settings/agent-ops`): requests per
 *    minute on the agent's public token, then per end user (the request's
 *    `endUserId`, else the client's address), counted in PostgreSQL so they
 *    hold across nodes. Over either, a 429 with `Retry-After`. The token's
 *    count is keyed by the agent, so a rotation does not reset it.
 */
import { Effect } from "effect"
import { originAllowed } from "../../domain/deployments/EmbedOrigin.js"
import { Forbidden, RateLimited } from "../../domain/HttpErrors.js"
import { RateLimiter } from "../RateLimiter.js"
import { AgentOps } from "../settings/AgentOps.js"
import { PublicAgents } from "./PublicAgents.js"

/** Who sends the turn, as far as the gate can tell. */
export interface PublicCaller {
  readonly token: string
  readonly origin: string | undefined
  readonly endUserId: string | undefined
  readonly ipAddress: string | null
}

const limited = (what: string, perMinute: number) => ({ retryAfterSeconds }: RateLimited) =>
  Effect.fail(
    new RateLimited({
      retryAfterSeconds,
      message: `${what} made more than ${perMinute} requests in a minute; retry in ${retryAfterSeconds} seconds`
    })
  )

export class PublicAgentGate extends Effect.Service<PublicAgentGate>()("parley/services/aiAgents/PublicAgentGate", {
  effect: Effect.gen(function*() {
    const published = yield* PublicAgents
    const agentOps = yield* AgentOps
    const limiter = yield* RateLimiter

    /** The live agent the caller may send a turn to now. */
    const admit = Effect.fn("PublicAgentGate.admit")(function*(caller: PublicCaller) {
      const live = yield* published.byToken(caller.token)
      if (!originAllowed(live.embed.allowedOrigins, caller.origin)) {
        return yield* new Forbidden({
          message: caller.origin === undefined
            ? "This agent answers pages of its allowed origins only, and the request has no Origin"
            : `The origin ${caller.origin} is not allowed to use this agent`
        })
      }
      const { rateLimits } = yield* agentOps.get(live.agent.workspaceId)
      const perToken = rateLimits.perPublicTokenPerMinute
      yield* limiter.consume({ name: "agent.token", limit: perToken, window: "1 minute" }, live.agent.id).pipe(
        Effect.catchTag("RateLimited", limited("This agent's public token", perToken))
      )
      const endUser = caller.endUserId !== undefined
        ? `user:${caller.endUserId}`
        : caller.ipAddress !== null
        ? `address:${caller.ipAddress}`
        : undefined
      if (endUser !== undefined) {
        const perUser = rateLimits.perEndUserPerMinute
        yield* limiter.consume(
          { name: "agent.end-user", limit: perUser, window: "1 minute" },
          `${live.agent.id}/${endUser}`
        )
          .pipe(Effect.catchTag("RateLimited", limited("This end user", perUser)))
      }
      return live
    })

    return { admit } as const
  }),
  dependencies: [PublicAgents.Default]
}) {}
