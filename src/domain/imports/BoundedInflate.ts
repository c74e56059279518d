/**
 * Raw DEFLATE and zip archives inflated under a byte budget: a compressed
 * diagram or an archive that would inflate past it (a zip bomb) is refused
 * as soon as the budget is passed, before the rest is inflated.
 */
import { Inflate, Unzip, UnzipInflate } from "fflate"
import { IMPORT_LIMITS } from "./ImportRequest.js"

class OverBudget extends Error {}

/**
 * fflate inflates all it is given in one step before it hands over any
 * output, so input is fed in slices: one slice (DEFLATE expands at most about
 * 1,032 times) cannot inflate to much more than the budget before it is checked.
 */
const SLICE = 64 * 1024

const slices = function*(data: Uint8Array): Generator<readonly [Uint8Array, boolean]> {
  if (data.length === 0) yield [data, true]
  for (let at = 0; at < data.length; at += SLICE) {
    const end = Math.min(data.length, at + SLICE)
    yield [data.subarray(at, end), end === data.length]
  }
}

/** The inflated bytes, or a reason they could not be had. */
export type Inflated = { readonly ok: true; readonly bytes: Uint8Array } | {
  readonly ok: false
  readonly reason: string
}

const concat = (chunks: ReadonlyArray<Uint8Array>, total: number) => {
  const out = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.length
  }
  return out
}

/** Inflate raw DEFLATE data, at most `budget` bytes of output. */
export const inflateRawBounded = (data: Uint8Array, budget: number = IMPORT_LIMITS.archiveInflatedBytes): Inflated => {
  const chunks: Array<Uint8Array> = []
  let total = 0
  try {
    const inflate = new Inflate((chunk) => {
      total += chunk.length
      if (total > budget) throw new OverBudget()
      chunks.push(chunk)
    })
    for (const [slice, final] of slices(data)) inflate.push(slice, final)
    return { ok: true, bytes: concat(chunks, total) }
  } catch (error) {
    return error instanceof OverBudget
      ? { ok: false, reason: `it inflates to more than ${budget} bytes` }
      : { ok: false, reason: "it is not valid DEFLATE data" }
  }
}

/** The files of a zip archive (directories left out), or why it could not be read. */
export type Unzipped =
  | { readonly ok: true; readonly files: ReadonlyMap<string, Uint8Array>; readonly skipped: ReadonlyArray<string> }
  | { readonly ok: false; readonly reason: string }

/**
 * Unzip under the import limits: at most `archiveEntries` entries and
 * `archiveInflatedBytes` inflated in all, counted while inflating (the sizes a
 * zip declares are not trusted). Entries stored with a method other than
 * store or DEFLATE are skipped.
 */
export const unzipBounded = (
  archive: Uint8Array,
  limits: { readonly entries: number; readonly bytes: number } = {
    entries: IMPORT_LIMITS.archiveEntries,
    bytes: IMPORT_LIMITS.archiveInflatedBytes
  }
): Unzipped => {
  if (archive.length < 4 || archive[0] !== 0x50 || archive[1] !== 0x4b) {
    return { ok: false, reason: "it is not a zip archive" }
  }
  const files = new Map<string, Uint8Array>()
  const skipped: Array<string> = []
  let entries = 0
  let total = 0
  let failure: string | undefined
  try {
    const unzip = new Unzip((file) => {
      if (++entries > limits.entries) throw new OverBudget(`more than ${limits.entries} entries`)
      if (file.name.endsWith("/")) return
      if (file.compression !== 0 && file.compression !== 8) {
        skipped.push(file.name)
        return
      }
      const chunks: Array<Uint8Array> = []
      let size = 0
      file.ondata = (error, chunk, final) => {
        if (error !== null) {
          // fflate hands a throw from this callback back to it as an error: the budget, not corruption.
          failure ??= error instanceof OverBudget ? error.message : `entry ${file.name} is corrupt`
          return
        }
        size += chunk.length
        total += chunk.length
        if (total > limits.bytes) throw new OverBudget(`it inflates to more than ${limits.bytes} bytes`)
        chunks.push(chunk)
        if (final) files.set(file.name, concat(chunks, size))
      }
      file.start()
    })
    unzip.register(UnzipInflate)
    for (const [slice, final] of slices(archive)) {
      unzip.push(slice, final)
      if (failure !== undefined) break
    }
  } catch (error) {
    return { ok: false, reason: error instanceof OverBudget ? error.message : "it is not a readable zip archive" }
  }
  if (failure !== undefined) return { ok: false, reason: failure }
  if (files.size === 0) return { ok: false, reason: "it holds no file" }
  return { ok: true, files, skipped }
}
