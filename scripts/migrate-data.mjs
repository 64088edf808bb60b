#!/usr/bin/env node
// `npm run migrate-data -- --from ./data --to postgres://…`: copies an embedded DATA_DIR into PostgreSQL
// (api/migrate-data.ts). Runs the built dist/server/migrate-data.js in this process, so its arguments
// and exit status pass through; builds the server first when that file is missing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'dist/server/migrate-data.js');
if (!existsSync(file)) {
  console.log('dist/server/migrate-data.js is missing: building the server first.');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
}
await import(pathToFileURL(file).href);
