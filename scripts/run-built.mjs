// What `npm run backup`, `restore`, `migrate`, `migrate-data`, `audit-verify` and `audit-prune` share: run
// the built dist/server/<name>.js (api/<name>.ts) in this process, so its arguments and exit status pass
// through; build the server first when that file is missing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @param {'backup' | 'restore' | 'migrate' | 'migrate-data' | 'audit-verify' | 'audit-prune'} name */
export async function runBuilt(name) {
  const file = path.join(root, `dist/server/${name}.js`);
  if (!existsSync(file)) {
    console.log(`dist/server/${name}.js is missing: building the server first.`);
    const { buildServer } = await import('./build-server.mjs');
    await buildServer();
  }
  await import(pathToFileURL(file).href);
}
