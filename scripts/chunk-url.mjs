// A Vite plugin: `import url from './x.ts?chunk-url'` gives, in a build, the address of the chunk that
// `import('./x.ts')` loads (the same chunk: Rolldown emits one), so widgets/shared/load-once.ts can fetch it
// again under a fresh address after a failed import (docs/engineering-notes.md#chunks-fetched-again). In the
// dev server, tests and the prerender it is `undefined` (nothing there needs a second address).
const SUFFIX = '?chunk-url';
const PREFIX = '\0sgx-chunk-url:';

export function chunkUrl() {
  let building = false;
  return {
    name: 'sgx-chunk-url',
    enforce: 'pre',
    configResolved(config) {
      building = config.command === 'build' && !config.build.ssr;
    },
    async resolveId(source, importer) {
      if (!source.endsWith(SUFFIX)) return null;
      const target = await this.resolve(source.slice(0, -SUFFIX.length), importer, { skipSelf: true });
      if (!target) this.error(`${source}: nothing to load at that address`);
      return PREFIX + target.id;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      if (!building) return 'export default undefined;';
      const reference = this.emitFile({ type: 'chunk', id: id.slice(PREFIX.length) });
      return `export default import.meta.ROLLUP_FILE_URL_${reference};`;
    },
  };
}
