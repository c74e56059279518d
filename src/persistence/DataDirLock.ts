/**
 * One process per embedded data directory. Two PGlite instances on the same
 * files silently lose data, so the server takes a lock file and a second
 * start is refused with a message naming the holder.
 */
import { Data, Effect } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

/** Another live process holds the data directory. */
export class DataDirLocked extends Data.TaggedError("DataDirLocked")<{
  readonly dataDir: string
  readonly holder: string
}> {
  override get message() {
    return `The data directory ${this.dataDir} is in use by another Parley process (${this.holder}). ` +
      `Stop that process first, or set PARLEY_DATA_DIR to another directory, or DATABASE_URL to share a PostgreSQL server.`
  }
}

interface Holder {
  readonly pid: number
  readonly host: string
  readonly startedAt: string
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const readHolder = (file: string): Holder | undefined => {
  try {
    return JSON.parse(Fs.readFileSync(file, "utf8")) as Holder
  } catch {
    return undefined
  }
}

const tryCreate = (file: string, holder: Holder): boolean => {
  try {
    Fs.writeFileSync(file, JSON.stringify(holder), { flag: "wx" })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false
    throw error
  }
}

const describe = (holder: Holder | undefined) =>
  holder ? `pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}` : "unknown holder"

/**
 * Hold `<dataDir>/parley.lock` for the life of the scope. A lock left by a
 * process that no longer runs on this host is taken over.
 */
export const acquireDataDirLock = (dataDir: string) => {
  const file = Path.join(dataDir, "parley.lock")
  const take = Effect.try({
    try: () => {
      Fs.mkdirSync(dataDir, { recursive: true })
      const me: Holder = { pid: process.pid, host: Os.hostname(), startedAt: new Date().toISOString() }
      if (tryCreate(file, me)) return undefined
      const holder = readHolder(file)
      if (holder === undefined || (holder.host === me.host && !isAlive(holder.pid))) {
        Fs.rmSync(file, { force: true })
        if (tryCreate(file, me)) return undefined
      }
      return describe(readHolder(file))
    },
    catch: (cause) => new DataDirLocked({ dataDir, holder: `the lock file could not be written: ${String(cause)}` })
  }).pipe(
    Effect.flatMap((holder) => holder === undefined ? Effect.void : Effect.fail(new DataDirLocked({ dataDir, holder })))
  )
  return Effect.acquireRelease(take, () =>
    Effect.sync(() => {
      if (readHolder(file)?.pid === process.pid) Fs.rmSync(file, { force: true })
    }))
}
