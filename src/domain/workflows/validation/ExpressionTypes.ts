/**
 * The JSON type an expression's value is sure to have, when its syntax tree
 * says so: a literal, an array or object constructor, an operator whose
 * result has one type (a comparison, `and`/`or`, `in` give a boolean, `&` a
 * string, arithmetic a number), a few built-in functions, a condition whose
 * two branches agree, and `input.<name>` for an input the trigger declares
 * with a type. "Sure" allows for no value at all (`input.x < 1` is nothing
 * when `input.x` is missing): a type here means "this type or nothing",
 * which is enough to say that a value can never be a boolean or never equal
 * a literal of another type. Everything else is unknown (`undefined`).
 */
import type { InputVariableType } from "../TriggerData.js"

/** A JSON type an expression's value is sure to have (or to be missing). */
export type StaticType = "string" | "number" | "boolean" | "null" | "array" | "object"

type AstNode = { readonly [key: string]: unknown }

const isNode = (value: unknown): value is AstNode =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof RegExp)

const BINARY = new Map<string, StaticType>([
  ...["=", "!=", "<", ">", "<=", ">=", "and", "or", "in"].map((op) => [op, "boolean"] as const),
  ["&", "string"],
  ...["+", "-", "*", "/", "%"].map((op) => [op, "number"] as const)
])

const FUNCTIONS = new Map<string, StaticType>([
  ...["string", "substring", "uppercase", "lowercase", "trim", "join"].map((name) => [name, "string"] as const),
  ...["number", "count", "length", "sum", "abs", "floor", "ceil", "round"].map((name) => [name, "number"] as const),
  ...["boolean", "not", "exists", "contains"].map((name) => [name, "boolean"] as const)
])

/** Nesting beyond which the type is left unknown (a literal buried this deep is not worth the walk). */
const MAX_DEPTH = 64

/** The names an expression binds with `:=` (a bound `$count` is no longer the built-in one). */
const boundNames = (ast: unknown): ReadonlySet<string> => {
  const names = new Set<string>()
  const pending: Array<unknown> = [ast]
  const seen = new Set<object>()
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== "object" || node === null || node instanceof RegExp || seen.has(node)) continue
    seen.add(node)
    if (isNode(node) && node.type === "bind" && isNode(node.lhs) && typeof node.lhs.value === "string") {
      names.add(node.lhs.value)
    }
    pending.push(...Object.values(node))
  }
  return names
}

const inputName = (node: AstNode): string | undefined => {
  const steps = node.steps
  if (node.type !== "path" || !Array.isArray(steps) || steps.length !== 2 || "group" in node) return undefined
  const [first, second] = steps as ReadonlyArray<unknown>
  const plain = (step: unknown): step is AstNode =>
    isNode(step) && step.type === "name" && typeof step.value === "string" && step.stages === undefined
  return plain(first) && first.value === "input" && plain(second) ? second.value as string : undefined
}

/** The type `ast`'s value is sure to have, or `undefined`; `inputType` gives a declared input's type. */
export const staticTypeOf = (
  ast: unknown,
  inputType: (name: string) => InputVariableType | undefined
): StaticType | undefined => {
  let bound: ReadonlySet<string> | undefined
  const typeOf = (node: unknown, depth: number): StaticType | undefined => {
    if (!isNode(node) || depth > MAX_DEPTH) return undefined
    if ("predicate" in node || "stages" in node || "group" in node) return undefined
    switch (node.type) {
      case "string":
        return "string"
      case "number":
        return "number"
      case "value":
        return node.value === null ? "null" : typeof node.value === "boolean" ? "boolean" : undefined
      case "unary":
        return node.value === "[" ? "array" : node.value === "{" ? "object" : node.value === "-" ? "number" : undefined
      case "binary":
        return typeof node.value === "string" ? BINARY.get(node.value) : undefined
      case "block":
        return Array.isArray(node.expressions) && node.expressions.length === 1
          ? typeOf(node.expressions[0], depth + 1)
          : undefined
      case "condition": {
        const then = typeOf(node.then, depth + 1)
        return then !== undefined && then === typeOf(node.else, depth + 1) ? then : undefined
      }
      case "function": {
        const procedure = node.procedure
        if (!isNode(procedure) || procedure.type !== "variable" || typeof procedure.value !== "string") return undefined
        bound ??= boundNames(ast)
        return bound.has(procedure.value) ? undefined : FUNCTIONS.get(procedure.value)
      }
      case "path": {
        const name = inputName(node)
        return name === undefined ? undefined : inputType(name)
      }
      default:
        return undefined
    }
  }
  return typeOf(ast, 0)
}

const isLiteral = (node: unknown): boolean =>
  isNode(node) &&
  (node.type === "string" || node.type === "number" || (node.type === "value" && node.value !== undefined))

/**
 * The type of a constant: a string, number, `null` literal, or an array or
 * object constructor whose members are literals, in parentheses or not;
 * `undefined` for anything that reads a value.
 */
export const constantTypeOf = (ast: unknown): StaticType | undefined => {
  let node = ast
  for (let depth = 0; depth < MAX_DEPTH && isNode(node) && node.type === "block"; depth++) {
    if (!Array.isArray(node.expressions) || node.expressions.length !== 1 || "predicate" in node) return undefined
    node = node.expressions[0]
  }
  if (!isNode(node) || "predicate" in node || "stages" in node || "group" in node) return undefined
  if (node.type === "unary" && node.value === "[") {
    return Array.isArray(node.expressions) && node.expressions.every(isLiteral) ? "array" : undefined
  }
  if (node.type === "unary" && node.value === "{") {
    const pairs = node.lhs
    return Array.isArray(pairs) && pairs.every((pair) => Array.isArray(pair) && pair.every(isLiteral))
      ? "object"
      : undefined
  }
  return isLiteral(node) ? staticTypeOf(node, () => undefined) : undefined
}
