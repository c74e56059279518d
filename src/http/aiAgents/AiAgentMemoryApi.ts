import { HttpApiGroup, OpenApi } from "@effect/platform"
import { AiAgentMemoryId } from "../../domain/aiAgents/Ids.js"
import {
  AiAgentMemory,
  AiAgentMemoryCreate,
  AiAgentMemoryKeyTaken,
  AiAgentMemoryListParams,
  AiAgentMemoryNotFound,
  AiAgentMemoryPatch,
  AiAgentMemoryPatchById
} from "../../domain/aiAgents/Memory.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { collectionEndpoints } from "./collectionEndpoints.js"

const memory = collectionEndpoints({
  path: "memory",
  itemParam: "memory_id",
  id: AiAgentMemoryId,
  noun: ["fact", "remembered facts"],
  item: AiAgentMemory.json,
  detail: AiAgentMemory.json,
  listParams: AiAgentMemoryListParams,
  create: AiAgentMemoryCreate,
  patch: AiAgentMemoryPatch,
  patchById: AiAgentMemoryPatchById,
  notFound: AiAgentMemoryNotFound
})

const expiryRule = "An `expiresAt` in the past is a `ValidationFailed`."

/** An AI agent's memory: facts it keeps across conversations (`/v1/ai-agents/{slug}/memory`). */
export class AiAgentMemoryApi extends HttpApiGroup.make("aiAgentMemory")
  .add(memory.list.annotate(OpenApi.Description, "Newest first; expired facts are not listed."))
  .add(
    memory.create
      .addError(AiAgentMemoryKeyTaken)
      .addError(ValidationFailed)
      .annotate(OpenApi.Description, `The fact's \`source\` is \`manual\`. ${expiryRule}`)
  )
  .add(memory.get)
  .add(memory.update.addError(AiAgentMemoryKeyTaken).addError(ValidationFailed))
  .add(memory.delete.annotate(OpenApi.Description, "The agent forgets the fact at once, in every conversation."))
  .add(memory.updateById.addError(AiAgentMemoryKeyTaken).addError(ValidationFailed))
  .add(memory.deleteById)
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agent memory")
  .annotate(
    OpenApi.Description,
    "Facts an AI agent keeps across conversations, about its world or about one end user, written here or by " +
      "the `remember` tool, and forgotten by their retention rule or expiry. Live data, not part of the draft: " +
      "writes do not bump the agent's revision, and every version reads the same memory."
  )
{}
