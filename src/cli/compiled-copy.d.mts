/** See compiled-copy.mjs: the folder of a current compiled copy of `entries` (absolute .ts paths under `root`), built in `cache` when needed. */
export function compiledCopy(options: { root: string; entries: readonly string[]; cache: string }): Promise<string>;
