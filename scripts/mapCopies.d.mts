/** A module of a package and the exact copies of a Map it holds, with how many of each. */
export interface CopySite {
  readonly module: string
  readonly copies: Readonly<Record<string, number>>
}
/** Where Effect copies a fiber's services and fiber refs with `new Map(map)`. */
export declare const copySites: ReadonlyArray<CopySite>
/** `source` with each listed copy made by `parleyCopyMap`; throws when a copy is not there exactly as many times as listed. */
export declare const rewriteCopies: (module: string, source: string, copies: Readonly<Record<string, number>>) => string
/** The esbuild plugin that rewrites them in the bundle. */
export declare const cheapMapCopies: { readonly name: string; readonly setup: (build: unknown) => void }
