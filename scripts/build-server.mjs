#!/usr/bin/env node
// Builds the Koa server (api/server.ts) into dist/server/server.js for plain Node, and beside it the
// commands migrate, migrate-data, backup, restore, audit-verify and audit-prune (api/<name>.ts →
// dist/server/<name>.js); what they share is in dist/server/chunks/. npm packages stay external (an SSR
// build's default), so native modules such as @node-rs/argon2 load as usual.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildServer(outDir = path.join(root, 'dist/server')) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      sourcemap: true,
      rollupOptions: {
        input: Object.fromEntries(
          ['server', 'migrate', 'migrate-data', 'backup', 'restore', 'audit-verify', 'audit-prune'].map((name) => [
            name,
            path.join(root, `api/${name}.ts`),
          ]),
        ),
        output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', format: 'es' },
      },
    },
  });
  return path.join(outDir, 'server.js');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = await buildServer(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(
    `Built ${path.relative(root, file)} and migrate.js, migrate-data.js, backup.js, restore.js, audit-verify.js and ` +
      'audit-prune.js beside it',
  );
}
