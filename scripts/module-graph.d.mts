/** The relative specifiers a built module imports: statically, and with `import()`. */
export function importsOf(code: string): { static: string[]; dynamic: string[] };
/** A module and every file it imports statically, relative to dir. */
export function staticImportGraph(dir: string, entry: string): string[];
/** A module and every file it may load, statically or with `import()`, relative to dir (the module first). */
export function moduleGraph(dir: string, entry: string): string[];
/** gzip (level 9) bytes of a module with its static imports. */
export function initialGzipBytes(dir: string, entry: string): number;
