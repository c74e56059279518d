import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AgentReleases } from "../../services/aiAgents/AgentReleases.js"
import { Api } from "../Api.js"

/** Publishing an agent, its versions and rollback, the public token, the embed and the agent's history. */
export const AiAgentReleasesHttpLive = HttpApiBuilder.group(
  Api,
  "aiAgentReleases",
  (handlers) =>
    Effect.gen(function*() {
      const releases = yield* AgentReleases

      return handlers
        .handle("publish", ({ headers, path, payload }) =>
          Effect.gen(function*() {
            return yield* releases.publish(
              yield* CurrentPrincipal,
              path.slug,
              headers["if-match"],
              payload.notes,
              yield* CurrentOrigin
            )
          }))
        .handle("rotatePublicToken", ({ path }) =>
          Effect.gen(function*() {
            return yield* releases.rotatePublicToken(yield* CurrentPrincipal, path.slug, yield* CurrentOrigin)
          }))
        .handle(
          "getEmbed",
          ({ path }) => Effect.flatMap(CurrentPrincipal, (principal) => releases.getEmbed(principal, path.slug))
        )
        .handle(
          "listVersions",
          ({ path, urlParams }) =>
            Effect.flatMap(CurrentPrincipal, (principal) => releases.listVersions(principal, path.slug, urlParams))
        )
        .handle("rollback", ({ path }) =>
          Effect.gen(function*() {
            return yield* releases.rollback(yield* CurrentPrincipal, path.slug, path.vid, yield* CurrentOrigin)
          }))
        .handle(
          "listAuditEvents",
          ({ path, urlParams }) =>
            Effect.flatMap(CurrentPrincipal, (principal) => releases.listAuditEvents(principal, path.slug, urlParams))
        )
    })
)
