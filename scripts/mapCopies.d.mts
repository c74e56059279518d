/** One exact text of a package's module, how many times it is there, and what it becomes. */
export interface Rewrite {
  readonly from: string
  readonly count: number
  readonly to: string
}
/** A module of a package and the rewrites of its copies of Maps. */
export interface CopySite {
  readonly module: string
  readonly rewrites: ReadonlyArray<Rewrite>
}
/** Where Effect copies a fiber's services and fiber refs with `new Map(map)`. */
export declare const copySites: ReadonlyArray<CopySite>
/**
 * `source` with each listed copy rewritten, importing the maps from
 * `layeredMap.mjs`; throws when a copy is not there exactly as many times as
 * listed.
 */
export declare const rewriteCopies: (module: string, source: string, rewrites: ReadonlyArray<Rewrite>) => string
/** The esbuild plugin that rewrites them in the bundle. */
export declare const cheapMapCopies: { readonly name: string; readonly setup: (build: unknown) => void }
