/** The module rewritten. */
export declare const module: string
/** The text rewritten, and what it becomes. */
export declare const from: string
export declare const to: string
/** `source` with the guard; throws when the write is not there exactly once. */
export declare const rewriteSocketWrite: (source: string) => string
/** The esbuild plugin that rewrites it in the bundle. */
export declare const socketWriteAfterClose: { readonly name: string; readonly setup: (build: unknown) => void }
