/**
 * The system prompt of an agent turn, as a pure function of what the turn
 * runs: the instructions with `{{name}}` filled from the turn's variables and
 * `{{metadata.key}}` from the conversation's metadata (a placeholder with no
 * value becomes empty), then the enabled tasks in their order, then the
 * memory the turn may use.
 */
import type { AiAgentSnapshot } from "./AiAgentSnapshot.js"

const PLACEHOLDER = /\{\{\s*(metadata\.)?([A-Za-z0-9_.-]{1,64})\s*\}\}/g

/** The instructions with their placeholders filled. */
export const fillInstructions = (
  instructions: string,
  variables: Readonly<Record<string, string>>,
  metadata: Readonly<Record<string, string>>
): string =>
  instructions.replace(PLACEHOLDER, (_whole, isMetadata: string | undefined, name: string) => {
    const source = isMetadata === undefined ? variables : metadata
    return Object.hasOwn(source, name) ? source[name] : ""
  })

/** The whole system prompt. */
export const systemPrompt = (
  snapshot: Pick<AiAgentSnapshot, "instructions" | "tasks">,
  variables: Readonly<Record<string, string>>,
  metadata: Readonly<Record<string, string>>,
  memory: ReadonlyArray<string> = []
): string => {
  const tasks = [...snapshot.tasks]
    .filter((task) => task.status === "enabled")
    .sort((a, b) => a.position - b.position)
  const parts = [fillInstructions(snapshot.instructions, variables, metadata)]
  if (tasks.length > 0) {
    parts.push(
      "Tasks, in order:\n" +
        tasks.map((task, place) =>
          `${place + 1}. ${task.title}: ${task.goal}` +
          (task.successCriteria.length > 0 ? ` (done when: ${task.successCriteria.join("; ")})` : "")
        ).join("\n")
    )
  }
  if (memory.length > 0) parts.push("What you remember:\n" + memory.map((fact) => `- ${fact}`).join("\n"))
  return parts.join("\n\n")
}
