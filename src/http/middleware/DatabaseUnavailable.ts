/**
 * Whether a failure is the database being unable to answer for now (a
 * statement cancelled by its time-out, a connection refused, dropped or not
 * obtained in time, a server shutting down or out of connections, a
 * serialization conflict): a condition of the moment, not a fault of the
 * request, so it is answered 503 with `Retry-After` instead of 500. Found
 * through a chain of `cause`s, since the SQL client wraps the driver's error
 * and some services wrap the SQL client's.
 */

/** PostgreSQL SQLSTATE classes and codes that pass: connection (08), resources (53), operator (57), conflicts. */
const transientState = (code: string): boolean =>
  code.startsWith("08") || code.startsWith("53") || code.startsWith("57") || code === "40001" || code === "40P01"

/** Node's socket errors for a database that cannot be reached. */
const socketErrors = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"])

/** node-postgres reports these with a message only. */
const driverMessages = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Connection ended"
]

const field = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined

/** What the database could not do, in a few words with its code, or `undefined` when it is not such a failure. */
export const databaseUnavailable = (problem: unknown): string | undefined => {
  let current = problem
  let sqlSeen = false
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (field(current, "_tag") === "SqlError") sqlSeen = true
    const code = field(current, "code")
    if (sqlSeen && typeof code === "string") {
      if (/^[0-9A-Z]{5}$/.test(code) && transientState(code)) return `SQLSTATE ${code}`
      if (socketErrors.has(code)) return code
    }
    const message = field(current, "message")
    if (sqlSeen && typeof message === "string") {
      const known = driverMessages.find((text) => message.includes(text))
      if (known !== undefined) return known
    }
    current = field(current, "cause")
  }
  return undefined
}
