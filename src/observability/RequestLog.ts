/**
 * What the one log line of a request says beyond method, route and status:
 * handlers and middleware add the workspace and the bot they acted on.
 */
import { Effect, FiberRef } from "effect"

/** Facts about the current request, filled in as it is handled. */
export interface RequestFacts {
  workspaceId?: string
  botId?: string
}

/** The facts of the current request; a fresh object per request. */
export const currentRequestFacts = FiberRef.unsafeMake<RequestFacts>({})

/** Record facts about the current request for its log line. */
export const annotateRequest = (facts: RequestFacts): Effect.Effect<void> =>
  Effect.map(FiberRef.get(currentRequestFacts), (current) => {
    Object.assign(current, facts)
  })
