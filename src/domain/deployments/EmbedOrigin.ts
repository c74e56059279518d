/**
 * Whether a page may use a deployment's embed token: its `Origin` must be one
 * of the deployment's allowed origins (compared without regard to case, as
 * host names are), or the list is `["*"]`. A request without `Origin` (not
 * sent by a page) passes only the wildcard.
 */
import type { AllowedOrigins } from "../WebOrigin.js"

export const originAllowed = (allowed: AllowedOrigins, origin: string | undefined): boolean => {
  if (allowed.includes("*")) return true
  if (origin === undefined) return false
  const wanted = origin.toLowerCase()
  return allowed.some((candidate) => candidate.toLowerCase() === wanted)
}
