/** The bundle `npm start` runs: `.build/main.js`. */
export declare const bundle: string
/** Build the bundle when a source or input is newer than it (or it is missing). */
export declare const ensureBundle: () => Promise<void>
