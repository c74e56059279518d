/**
 * Access tokens whose signature this node has already verified, so a client
 * sending the same token on every request pays for one EdDSA verification,
 * not one per request (it was a tenth of a turn's CPU). An entry holds the
 * decoded claims and the `kid` that signed them; it is used only while that
 * key is still in Parley's key set and until the token expires (with the same
 * clock tolerance as `jwtVerify`). A token is its own key: the cache can only
 * answer for the exact bytes that were verified. Bounded, oldest out first.
 */
import type { AccessTokenClaims } from "../../domain/identity/AccessTokenClaims.js"

export interface VerifiedToken {
  readonly claims: AccessTokenClaims
  readonly kid: string
}

export interface VerifiedTokens {
  /** The claims of `token` if it was verified here, is not expired at `nowSeconds` and its key is still known. */
  readonly get: (token: string, nowSeconds: number, keyKnown: (kid: string) => boolean) => AccessTokenClaims | undefined
  readonly remember: (token: string, verified: VerifiedToken) => void
  readonly size: () => number
}

export const makeVerifiedTokens = (capacity: number, clockToleranceSeconds: number): VerifiedTokens => {
  // Insertion order is age order: the oldest entry is evicted first.
  const entries = new Map<string, VerifiedToken>()
  return {
    get: (token, nowSeconds, keyKnown) => {
      const entry = entries.get(token)
      if (entry === undefined) return undefined
      if (nowSeconds > entry.claims.exp + clockToleranceSeconds || !keyKnown(entry.kid)) {
        entries.delete(token)
        return undefined
      }
      return entry.claims
    },
    remember: (token, verified) => {
      entries.delete(token)
      entries.set(token, verified)
      if (entries.size > capacity) entries.delete(entries.keys().next().value!)
    },
    size: () => entries.size
  }
}
