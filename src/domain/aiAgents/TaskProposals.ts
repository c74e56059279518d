/**
 * Task derivation by a model, as pure functions: the prompt that asks for
 * tasks as JSON, and the reading of the model's answer. The answer's first
 * JSON object (a model may wrap it in prose or a code fence) must hold
 * `tasks`; each task that decodes as a `ProposedTask` is kept, titles the
 * agent already has and repeats (case-insensitively) are dropped, and at
 * most `maxTasks` come out. An answer with no usable task reads as none, and
 * the caller falls back to the outline.
 */
import { Either, Schema } from "effect"
import { ProposedTask } from "./DerivedTasks.js"

/** What the model is asked about. */
export interface ProposalInput {
  readonly description: string
  readonly context?: string | undefined
  readonly maxTasks: number
  /** The agent's instructions (the agent form), for context. */
  readonly instructions?: string | undefined
  readonly existingTitles: ReadonlyArray<string>
}

/** The system and user messages asking for at most `maxTasks` tasks as JSON. */
export const proposalPrompt = (input: ProposalInput): { readonly system: string; readonly user: string } => ({
  system: "You design the tasks of a customer-facing AI agent. Answer with one JSON object and nothing else: " +
    "{\"tasks\": [{\"title\": string (a short imperative phrase, at most 120 characters), \"goal\": string (one " +
    "or two sentences), \"successCriteria\": [string, ...] (1 to 3 observable outcomes)}]}. Propose at most " +
    `${input.maxTasks} tasks, in the order a conversation would meet them.`,
  user: [
    `What the agent should do:\n${input.description}`,
    ...(input.context === undefined || input.context.trim() === "" ? [] : [`Context:\n${input.context}`]),
    ...(input.instructions === undefined || input.instructions.trim() === ""
      ? []
      : [`The agent's instructions:\n${input.instructions}`]),
    ...(input.existingTitles.length === 0
      ? []
      : [`Tasks it already has (do not repeat them):\n${input.existingTitles.map((t) => `- ${t}`).join("\n")}`])
  ].join("\n\n")
})

/** How many `{` a reading tries as the object's start: a hostile answer full of braces stays linear. */
const STARTS = 20

/** The first balanced JSON object in `text`, if any parses (within the first `STARTS` braces). */
const firstObject = (text: string): unknown => {
  let tries = 0
  for (let start = text.indexOf("{"); start !== -1 && tries++ < STARTS; start = text.indexOf("{", start + 1)) {
    let depth = 0
    let inString = false
    for (let i = start; i < text.length; i++) {
      const char = text[i]
      if (inString) {
        if (char === "\\") i++
        else if (char === "\"") inString = false
      } else if (char === "\"") inString = true
      else if (char === "{") depth++
      else if (char === "}" && --depth === 0) {
        try {
          return JSON.parse(text.slice(start, i + 1))
        } catch {
          break
        }
      }
    }
  }
  return undefined
}

const decodeTask = Schema.decodeUnknownEither(ProposedTask)

/** The usable tasks of a model's answer (none when it holds none). */
export const readProposals = (
  text: string,
  maxTasks: number,
  existingTitles: ReadonlyArray<string>
): Array<ProposedTask> => {
  const answer = firstObject(text) as { tasks?: unknown } | undefined
  if (answer === undefined || !Array.isArray(answer?.tasks)) return []
  const seen = new Set(existingTitles.map((title) => title.trim().toLowerCase()))
  const tasks: Array<ProposedTask> = []
  for (const candidate of answer.tasks) {
    if (tasks.length >= maxTasks) break
    const task = decodeTask(candidate)
    if (Either.isLeft(task)) continue
    const key = task.right.title.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    tasks.push(task.right)
  }
  return tasks
}
