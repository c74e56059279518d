import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import type { AiAgentToolId } from "../../domain/aiAgents/Ids.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AiAgentTools } from "../../services/aiAgents/AiAgentTools.js"
import { AiAgentToolTests } from "../../services/aiAgents/AiAgentToolTests.js"
import { Api } from "../Api.js"
import { draftCollectionHandlers } from "./draftCollectionHandlers.js"

/** An agent's tools and their test; the `ById` forms name the tool in the body or the query and do the same. */
export const AiAgentToolsHttpLive = HttpApiBuilder.group(Api, "aiAgentTools", (handlers) =>
  Effect.gen(function*() {
    const tools = draftCollectionHandlers(
      yield* AiAgentTools,
      (path: { readonly slug: string; readonly tid: AiAgentToolId }) => path.tid
    )
    const tests = yield* AiAgentToolTests
    return handlers
      .handle("list", tools.list)
      .handle("create", tools.create)
      .handle("get", tools.get)
      .handle("update", tools.update)
      .handle("delete", tools.delete)
      .handle("updateById", tools.updateById)
      .handle("deleteById", tools.deleteById)
      .handle("test", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          tests.test(principal, path.slug, path.tid, payload.input)))
  }))
