/**
 * Ids for the nodes and edges the server makes (a create without an id, a
 * repair): readable, derived from what they are for, and never one the graph
 * already uses. The same graph always gives the same id.
 */
import type { FlowEdgeId, FlowNodeId } from "../FlowIds.js"

const MAX = 64

const clean = (text: string): string => text.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, MAX)

/** `base` when free, else `base_2`, `base_3`... (shortened to stay within 64 characters). */
export const freshId = (base: string, taken: ReadonlySet<string>): string => {
  const stem = clean(base) || "item"
  if (!taken.has(stem)) return stem
  for (let n = 2;; n++) {
    const suffix = `_${n}`
    const candidate = `${stem.slice(0, MAX - suffix.length)}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}

export const freshNodeId = (base: string, taken: ReadonlySet<string>) => freshId(base, taken) as FlowNodeId
export const freshEdgeId = (base: string, taken: ReadonlySet<string>) => freshId(base, taken) as FlowEdgeId
