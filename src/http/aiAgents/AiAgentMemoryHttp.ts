import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AgentMemory } from "../../services/aiAgents/AgentMemory.js"
import { Api } from "../Api.js"

/** An agent's memory; the `ById` forms name the fact in the body or the query and do the same. */
export const AiAgentMemoryHttpLive = HttpApiBuilder.group(Api, "aiAgentMemory", (handlers) =>
  Effect.gen(function*() {
    const memory = yield* AgentMemory

    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          memory.list(principal, path.slug, urlParams)))
      .handle("create", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          memory.create(principal, path.slug, payload)))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          memory.get(principal, path.slug, path.memory_id)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          memory.update(principal, path.slug, path.memory_id, payload)))
      .handle("delete", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          memory.delete(principal, path.slug, path.memory_id)))
      .handle("updateById", ({ path, payload: { id, ...patch } }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          memory.update(principal, path.slug, id, patch)))
      .handle("deleteById", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          memory.delete(principal, path.slug, urlParams.id)))
  }))
