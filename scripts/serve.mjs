#!/usr/bin/env node
// `npm run serve`: runs the server `npm run build` made (dist/server/server.js) without building,
// so several instances can run from one checkout (each with its own PORT, sharing DATABASE_URL).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const serverFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist/server/server.js');
if (!existsSync(serverFile)) {
  console.error('Cannot start: the server is not built yet. Run `npm run build` once, then `npm run serve`.');
  process.exit(1);
}
await import(pathToFileURL(serverFile).href);
