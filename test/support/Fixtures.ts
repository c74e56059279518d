/**
 * The files tests read, inside the repository (`test/fixtures`, with each
 * file's origin and licence in its `SOURCES.md`), so a clone runs its tests
 * with nothing beside it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** The path of a file or folder under `test/fixtures`. */
export const fixture = (path: string): string => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url))

/** The path of a file or folder under `test/fixtures/corpus` (public diagrams, bot sources, data sets, vectors). */
export const corpus = (path: string): string => fixture(`corpus/${path}`)

/** Every file under a corpus folder, by path relative to it: a bot's sources as an import sends them. */
export const corpusFiles = (folder: string): Record<string, string> => {
  const root = corpus(folder).replace(/\/$/, "")
  const walk = (dir: string): Array<[string, string]> =>
    readdirSync(dir).flatMap((name) => {
      const path = `${dir}/${name}`
      return statSync(path).isDirectory() ? walk(path) : [[path.slice(root.length + 1), readFileSync(path, "utf8")]]
    })
  return Object.fromEntries(walk(root))
}
