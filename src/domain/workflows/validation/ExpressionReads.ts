/**
 * What a compiled JSONata expression reads from the document it runs on
 * (`{ input, vars, nodes, item, index }`), from its syntax tree. A name read
 * in the root context is a field of the document: the first step of a path
 * at the top of the expression, in a function's arguments, an object's or an
 * array's members, a condition's branches, a block, or a lambda's body (a
 * lambda keeps the context it was defined in). Inside a filter `[...]`, a
 * sort, a group-by `{...}`, a transform `|...|` or a later step of a path,
 * names are relative to the items at hand and are not the document's; `$$`
 * is the document everywhere, and `$` is where the context is the root.
 * A read inside `$exists(...)` is marked as a test: testing whether a
 * variable is set is not relying on it. Iterative, so deep trees are safe.
 */

/** One field of the document an expression reads: `vars.order` is root `vars`, name `order`. */
export interface Reference {
  readonly root: string
  /** The next step's name, when it is one (`vars.<name>`, `input.<name>`, `nodes.<id>`). */
  readonly name: string | undefined
  /** Inside `$exists(...)`. */
  readonly tested: boolean
}

type AstNode = { readonly [key: string]: unknown }

const isNode = (value: unknown): value is AstNode =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof RegExp)

/** Keys whose expressions read the items at hand, not the context of the node that holds them. */
const RELATIVE = new Set(["stages", "predicate", "group"])

interface Visit {
  readonly node: unknown
  readonly root: boolean
  readonly tested: boolean
}

const nameOf = (step: unknown): string | undefined =>
  isNode(step) && step.type === "name" && typeof step.value === "string" ? step.value : undefined

/** Where the document's field is named in a path read in the given context: the index of that step, or -1. */
const rootStep = (steps: ReadonlyArray<unknown>, root: boolean): number => {
  const first = steps[0]
  if (root && nameOf(first) !== undefined) return 0
  if (!isNode(first) || first.type !== "variable" || nameOf(steps[1]) === undefined) return -1
  return first.value === "$" || (first.value === "" && root) ? 1 : -1
}

/** The document fields `ast` reads, in the order met (duplicates kept). */
export const referencesOf = (ast: unknown): ReadonlyArray<Reference> => {
  const found: Array<Reference> = []
  const pending: Array<Visit> = [{ node: ast, root: true, tested: false }]
  const seen = new Set<object>()
  while (pending.length > 0) {
    const { node, root, tested } = pending.pop()!
    if (typeof node === "object" && node !== null) {
      if (seen.has(node)) continue
      seen.add(node)
    }
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index--) pending.push({ node: node[index], root, tested })
      continue
    }
    if (!isNode(node)) continue
    const children: Array<Visit> = []
    if (node.type === "path" && Array.isArray(node.steps)) {
      const steps: ReadonlyArray<unknown> = node.steps
      const at = rootStep(steps, root)
      if (at >= 0) found.push({ root: nameOf(steps[at])!, name: nameOf(steps[at + 1]), tested })
      steps.forEach((step, index) => children.push({ node: step, root: index === 0 && root, tested }))
      for (const [key, value] of Object.entries(node)) {
        if (key !== "steps") children.push({ node: value, root: root && !RELATIVE.has(key), tested })
      }
    } else {
      const exists = node.type === "function" && isNode(node.procedure) && node.procedure.type === "variable" &&
        node.procedure.value === "exists"
      for (const [key, value] of Object.entries(node)) {
        if (key === "value") continue
        const relative = RELATIVE.has(key) || node.type === "transform"
        if (exists && key === "arguments" && Array.isArray(value)) {
          value.forEach((argument, index) => children.push({ node: argument, root, tested: tested || index === 0 }))
        } else {
          children.push({ node: value, root: root && !relative, tested })
        }
      }
    }
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]!)
  }
  return found
}
