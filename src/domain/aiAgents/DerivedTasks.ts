import { Schema } from "effect"
import { ResolvedModel } from "./ModelSettings.js"

/** A condition that tells whether a task is done: one short, checkable sentence. */
export const SuccessCriterion = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(500))

/**
 * A task proposed for an agent (a goal with success criteria), before it
 * exists in the agent's `/tasks` collection; the order of a list is the
 * order in which the agent pursues them.
 */
export const ProposedTask = Schema.Struct({
  title: Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(120)),
  goal: Schema.String.pipe(Schema.maxLength(2000)),
  successCriteria: Schema.Array(SuccessCriterion).pipe(Schema.minItems(1), Schema.maxItems(10))
}).annotations({ identifier: "ProposedTask" })
export type ProposedTask = typeof ProposedTask.Type

/**
 * The body of both task-derivation routes. On `/ai-agents/{slug}/derive-tasks`
 * the agent's instructions and existing tasks are added as context, and the
 * proposal avoids repeating tasks it already has.
 */
export const DeriveTasksRequest = Schema.Struct({
  /** What the agent should do, in the user's words. */
  description: Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(4000)),
  /** Anything else worth knowing: audience, systems it touches, things it must never do. */
  context: Schema.optional(Schema.String.pipe(Schema.maxLength(4000))),
  maxTasks: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 20)), { default: () => 8 })
}).annotations({ identifier: "DeriveTasksRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * Proposed tasks, in order, and how they were made: by the workspace's LLM
 * (`llm`), or, when no LLM is configured, by a deterministic outline of the
 * description's sentences and verbs (`outline`). Nothing is saved.
 */
export const DerivedTasks = Schema.Struct({
  method: Schema.Literal("llm", "outline"),
  /** The model that proposed them; null for `outline`. */
  model: Schema.NullOr(ResolvedModel),
  tasks: Schema.Array(ProposedTask)
}).annotations({ identifier: "DerivedTasks" })
