/** Builds the host page into `outDir` (default dist/site, emptied first) and returns it. */
export function buildHost(outDir?: string): Promise<string>;
/** The prerendered markup without its Emotion <style> tags, and those styles as tags for <head>. */
export function hoistStyles(markup: string): { body: string; styles: string };
