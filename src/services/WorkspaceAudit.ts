import type { Origin } from "../domain/identity/Origin.js"
import { actorOf, type Principal } from "../domain/identity/Principal.js"
import type { AuditEntry } from "./AuditLog.js"

/** What a write changed: the audit fields its service chooses. */
export type WorkspaceEvent = Pick<AuditEntry, "action" | "resourceType" | "resourceId" | "summary">

/** The audit entry of a write a principal made in its own workspace, from where the request came. */
export const workspaceEntry = (principal: Principal, origin: Origin, event: WorkspaceEvent): AuditEntry => ({
  ...event,
  workspaceId: principal.workspaceId,
  actor: actorOf(principal),
  actorDisplay: principal.displayName,
  traceId: origin.traceId,
  ipAddress: origin.ipAddress,
  userAgent: origin.userAgent
})
