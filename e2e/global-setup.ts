import { mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildSite } from '../scripts/build.mjs';
import { buildServer } from '../scripts/build-server.mjs';
import { startPostgresCluster } from '../api/test-support/postgres-cluster.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Once per `npm run test:e2e`: builds what `npm start` serves (the page, the bundles, the PDFs, the server)
 * into node_modules/.cache/sgx-e2e, so every browser test runs against the real artifacts; and starts
 * a throwaway PostgreSQL cluster (api/test-support/postgres-cluster.ts).
 */
export default async function setup(project: TestProject) {
  // SGX_E2E_OUT lets two checkouts' runs (or two people on one machine) build apart.
  const out = process.env.SGX_E2E_OUT
    ? path.resolve(process.env.SGX_E2E_OUT)
    : path.join(repoRoot, 'node_modules', '.cache', 'sgx-e2e');
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  // The built server imports its packages: outside the repo, point it at the repo's node_modules.
  if (path.relative(repoRoot, out).startsWith('..'))
    await symlink(path.join(repoRoot, 'node_modules'), path.join(out, 'node_modules'), 'dir');
  const { widgetsDir } = await buildSite(path.join(out, 'site'));
  const serverFile = await buildServer(path.join(out, 'server'));
  project.provide('e2eBuild', { siteDir: path.join(out, 'site'), widgetsDir, serverFile });
  // One throwaway PostgreSQL for the tests that run the server on DATABASE_URL (a database each).
  const cluster = await startPostgresCluster();
  project.provide('postgresBaseUrl', cluster.baseUrl);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eBuild: { siteDir: string; widgetsDir: string; serverFile: string };
  }
}
