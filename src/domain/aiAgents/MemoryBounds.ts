/**
 * How much an AI agent may remember (so memory cannot grow without bound) and
 * when a fact is forgotten. Each scope holds at most `AGENT_SCOPE_FACT_LIMIT`
 * facts about the agent's world and, per end user, `END_USER_FACT_LIMIT` facts
 * about that end user. A write that would go over evicts first the expired
 * facts, then the least used and oldest `conversation` facts (use count, last
 * use, last write); `manual` facts are never evicted automatically.
 */
import type { AiAgentMemoryScope } from "./Memory.js"

/** At most this many facts in an agent's `agent` scope. */
export const AGENT_SCOPE_FACT_LIMIT = 200

/** At most this many facts about one end user of an agent. */
export const END_USER_FACT_LIMIT = 50

/** The fact limit of a scope. */
export const factLimit = (scope: AiAgentMemoryScope): number =>
  scope === "agent" ? AGENT_SCOPE_FACT_LIMIT : END_USER_FACT_LIMIT
