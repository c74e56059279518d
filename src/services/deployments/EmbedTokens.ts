/**
 * Who an embed token (`Authorization: Bearer cdp_…` on the public runtime
 * routes) lets in, checked in this order:
 *
 * 1. The token's SHA-256 names a deployment (looked up on every request, so a
 *    revocation stops the token at once on every node): unknown or revoked is
 *    a 401.
 * 2. The request's `Origin` must be one of the deployment's allowed origins
 *    (or the list is `["*"]`): otherwise a 403.
 * 3. The token's rate limit (requests per minute, sessions and turns
 *    together, counted in PostgreSQL so it holds across nodes): over it, a
 *    429 with `Retry-After`.
 *
 * The HTTP middleware (`EmbedAuthenticationLive`) only hands it the token and
 * the origin.
 */
import { Effect, Option } from "effect"
import { EMBED_TOKEN_PREFIX } from "../../domain/deployments/DeploymentSnapshot.js"
import type { EmbedCaller } from "../../domain/deployments/EmbedCaller.js"
import { originAllowed } from "../../domain/deployments/EmbedOrigin.js"
import { Forbidden, RateLimited, Unauthenticated } from "../../domain/HttpErrors.js"
import { DeploymentRepo } from "../../persistence/deployments/DeploymentRepo.js"
import { hashToken } from "../OpaqueTokens.js"
import { RateLimiter, type RateRule } from "../RateLimiter.js"

const TOKEN = /^cdp_[A-Za-z0-9_-]{43}$/

const unauthenticated = (message: string) => new Unauthenticated({ message })

/** One deployment's limit: its requests per minute. */
const ruleOf = (perMinute: number): RateRule => ({ name: "embed.token", limit: perMinute, window: "1 minute" })

export class EmbedTokens extends Effect.Service<EmbedTokens>()("parley/services/deployments/EmbedTokens", {
  effect: Effect.gen(function*() {
    const repo = yield* DeploymentRepo
    const limiter = yield* RateLimiter

    /** The caller `token` names, when `origin` may use it now. */
    const authenticate = Effect.fn("EmbedTokens.authenticate")(function*(token: string, origin: string | undefined) {
      if (token === "") {
        return yield* unauthenticated(
          `Send Authorization: Bearer ${EMBED_TOKEN_PREFIX}… (the deployment's embed token)`
        )
      }
      if (!TOKEN.test(token)) return yield* unauthenticated("This is not an embed token (cdp_…)")
      const found = yield* repo.byTokenHash(hashToken(token))
      if (Option.isNone(found)) return yield* unauthenticated("This embed token is not valid")
      const deployment = found.value
      if (deployment.status !== "live") {
        return yield* unauthenticated("This embed token was revoked: the deployment no longer answers")
      }
      if (!originAllowed(deployment.allowedOrigins, origin)) {
        return yield* new Forbidden({
          message: origin === undefined
            ? "This deployment answers pages of its allowed origins only, and the request has no Origin"
            : `The origin ${origin} is not allowed to use this deployment`
        })
      }
      yield* limiter.consume(ruleOf(deployment.rateLimitPerMinute), deployment.id).pipe(
        Effect.catchTag("RateLimited", ({ retryAfterSeconds }) =>
          Effect.fail(
            new RateLimited({
              retryAfterSeconds,
              message: `This embed token made more than ${deployment.rateLimitPerMinute} requests in a minute; ` +
                `retry in ${retryAfterSeconds} seconds`
            })
          ))
      )
      return {
        deploymentId: deployment.id,
        agentId: deployment.agentId,
        workspaceId: deployment.workspaceId
      } satisfies EmbedCaller
    })

    return { authenticate } as const
  })
}) {}
