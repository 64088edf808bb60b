#!/usr/bin/env node
// `npm run backup -- --out FILE`: a consistent backup of DATA_DIR, or of the database of DATABASE_URL,
// taken while the server runs (api/backup.ts). Runs the built dist/server/backup.js in this process,
// so its arguments and exit status pass through; builds the server first when that file is missing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'dist/server/backup.js');
if (!existsSync(file)) {
  console.log('dist/server/backup.js is missing: building the server first.');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
}
await import(pathToFileURL(file).href);
