/** scripts/chunk-url.mjs: the built address of the chunk `import('./x.ts')` loads; undefined outside a build. */
declare module '*?chunk-url' {
  const url: string | undefined;
  export default url;
}
