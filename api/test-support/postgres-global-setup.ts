import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster.ts';

/**
 * Once per test run (the `node` project): one throwaway PostgreSQL cluster, its base URL provided as
 * `postgresBaseUrl`. Each suite makes its own databases on it (createTestDatabase) and drops them.
 */
export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  project.provide('postgresBaseUrl', cluster.baseUrl);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresBaseUrl: string;
  }
}
