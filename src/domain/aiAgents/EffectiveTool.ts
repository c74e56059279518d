/**
 * What an AI agent's tool is when it runs, computed without effects: the
 * effective HTTP definition of a shared workspace tool under the agent's
 * overrides (limits replaced, headers and query parameters replaced by name,
 * `fixedInput` merged into the arguments), and the name, description and
 * JSON input schema the model is offered for each tool (`fixedInput`
 * properties removed: the model never chooses them). A tool test and a real
 * turn both use these, so what is tried is what runs.
 */
import type { JsonValue } from "../Json.js"
import type { HttpToolDefinition, ToolInputSchema } from "../workspace/HttpToolDefinition.js"
import type { BuiltinToolName, WorkspaceToolConfig } from "./ToolConfig.js"

type Overrides = (typeof WorkspaceToolConfig.Type)["overrides"]
type InputSchema = typeof ToolInputSchema.Type
type JsonRecord = { readonly [key: string]: JsonValue }

/** A workspace tool's definition under an agent's overrides; the tool's own definition when there are none. */
export const effectiveDefinition = (tool: HttpToolDefinition, overrides: Overrides): HttpToolDefinition => {
  const replaced = new Set(Object.keys(overrides.headers ?? {}).map((name) => name.toLowerCase()))
  const headers = {
    ...Object.fromEntries(Object.entries(tool.headers).filter(([name]) => !replaced.has(name.toLowerCase()))),
    ...overrides.headers
  }
  return {
    ...tool,
    headers,
    query: { ...tool.query, ...overrides.query },
    timeoutSeconds: overrides.timeoutSeconds ?? tool.timeoutSeconds,
    maxResponseBytes: overrides.maxResponseBytes ?? tool.maxResponseBytes
  }
}

/** The arguments a call sends: the model's (or a test's) input with the agent's `fixedInput` over it. */
export const effectiveInput = (input: JsonRecord, overrides: Overrides): JsonRecord => ({
  ...input,
  ...overrides.fixedInput
})

/** The `fixedInput` properties the tool's input schema does not declare (empty when it declares any property). */
export const undeclaredFixedInput = (schema: InputSchema, overrides: Overrides): ReadonlyArray<string> => {
  const properties = schema.properties
  if (properties === undefined) return []
  return Object.keys(overrides.fixedInput ?? {}).filter((name) => !Object.hasOwn(properties, name))
}

/** The input schema without the properties the agent fixes: they leave `properties` and `required`. */
export const withoutFixed = (schema: InputSchema, fixed: ReadonlyArray<string>): InputSchema => {
  if (fixed.length === 0) return schema
  const drop = new Set(fixed)
  const { properties, required, ...rest } = schema
  return {
    ...rest,
    type: "object",
    ...(properties === undefined
      ? {}
      : { properties: Object.fromEntries(Object.entries(properties).filter(([name]) => !drop.has(name))) }),
    ...(required === undefined ? {} : { required: required.filter((name) => !drop.has(name)) })
  }
}

/** The built-ins' own descriptions and input schemas, as the model sees them unless the tool has a description. */
export const builtinTools: Readonly<Record<BuiltinToolName, { description: string; inputSchema: InputSchema }>> = {
  knowledge_search: {
    description: "Search the agent's knowledge documents for passages relevant to a question.",
    inputSchema: {
      type: "object",
      properties: { query: { type: "string", minLength: 1, maxLength: 1000, description: "What to look for" } },
      required: ["query"]
    }
  },
  remember: {
    description: "Keep a fact for later conversations, such as a preference the user stated.",
    inputSchema: {
      type: "object",
      properties: {
        content: { type: "string", minLength: 1, maxLength: 2000, description: "The fact, in one sentence" },
        key: {
          type: "string",
          pattern: "^[a-z][a-z0-9_.-]{0,63}$",
          description: "A stable name for the fact; a fact with the same key is replaced"
        }
      },
      required: ["content"]
    }
  },
  handoff: {
    description: "Hand the conversation over to a human when you cannot help further.",
    inputSchema: {
      type: "object",
      properties: { reason: { type: "string", maxLength: 500, description: "Why a human should take over" } },
      required: []
    }
  }
}

/** What the model is offered for one tool. */
export interface ModelToolSchema {
  readonly name: string
  readonly description: string
  readonly inputSchema: InputSchema
}

/** The parts of an agent tool the model's view depends on. */
export interface ToolForModel {
  readonly name: string
  readonly description: string | null
  readonly config:
    | { readonly kind: "http"; readonly inputSchema: InputSchema }
    | typeof WorkspaceToolConfig.Type
    | { readonly kind: "builtin"; readonly builtin: BuiltinToolName }
}

/** The parts of a workspace tool the model's view of a `workspace` tool takes. */
export interface WorkspaceToolForModel {
  readonly description: string
  readonly inputSchema: InputSchema
}

/**
 * The name, description and input schema the model sees for a tool; for a
 * `workspace` tool, `workspaceTool` is the tool it references (undefined when
 * it is gone: the tool cannot be offered, and the answer is undefined).
 */
export const modelToolSchema = (
  tool: ToolForModel,
  workspaceTool?: WorkspaceToolForModel
): ModelToolSchema | undefined => {
  const { config } = tool
  switch (config.kind) {
    case "http":
      return { name: tool.name, description: tool.description ?? "", inputSchema: config.inputSchema }
    case "builtin": {
      const builtin = builtinTools[config.builtin]
      return { name: tool.name, description: tool.description ?? builtin.description, inputSchema: builtin.inputSchema }
    }
    case "workspace": {
      if (workspaceTool === undefined) return undefined
      return {
        name: tool.name,
        description: tool.description ?? workspaceTool.description,
        inputSchema: withoutFixed(workspaceTool.inputSchema, Object.keys(config.overrides.fixedInput ?? {}))
      }
    }
  }
}
