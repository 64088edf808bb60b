#!/usr/bin/env node
// `npm run restore -- --from FILE [--force]`: restores a backup made by `npm run backup` into an empty
// DATA_DIR or database (api/restore.ts). Runs the built dist/server/restore.js in this process, so its
// arguments and exit status pass through; builds the server first when that file is missing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'dist/server/restore.js');
if (!existsSync(file)) {
  console.log('dist/server/restore.js is missing: building the server first.');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
}
await import(pathToFileURL(file).href);
