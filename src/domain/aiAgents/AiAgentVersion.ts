import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { Revision } from "../Revision.js"
import { AiAgentSnapshot } from "./AiAgentSnapshot.js"
import { AiAgentEvalRunId, AiAgentId, AiAgentVersionNumber } from "./Ids.js"

/** An eval score, 0 to 1: the weighted share of expectations met. */
export const EvalScore = Schema.Number.pipe(Schema.between(0, 1))

/** The release notes of a version: up to 2000 characters. */
export const VersionNotes = Schema.String.pipe(Schema.maxLength(2000))

/**
 * A published version of an AI agent: an immutable snapshot of its draft
 * (configuration and collections), numbered from 1 per agent. Rollback makes
 * an older version live again without copying it.
 */
export class AiAgentVersion extends Model.Class<AiAgentVersion>("AiAgentVersion")({
  workspaceId: Model.FieldExcept("json", "jsonCreate", "jsonUpdate")(WorkspaceId),
  agentId: Model.FieldExcept("json", "jsonCreate", "jsonUpdate")(AiAgentId),
  number: AiAgentVersionNumber,
  notes: VersionNotes,
  /** The draft revision it snapshots. */
  revision: Revision,
  createdBy: Actor,
  /** The score of the eval run that gated its publish, or of its latest eval run; null when never evaluated. */
  evalScore: Schema.NullOr(EvalScore),
  evalRunId: Schema.NullOr(AiAgentEvalRunId),
  /** Whether it is the agent's live version now (computed, not stored). */
  live: Model.FieldOnly("json")(Schema.Boolean),
  /** What the version runs; kept out of the API's JSON (large, and partly secret references). */
  snapshot: Model.FieldOnly("select", "insert")(AiAgentSnapshot),
  createdAt: Model.DateTimeInsertFromDate
}) {}

/** The agent has no version with this number. */
export class AiAgentVersionNotFound extends Schema.TaggedError<AiAgentVersionNotFound>()(
  "AiAgentVersionNotFound",
  { slug: Schema.String, version: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "The agent has no such version" })
) {}
