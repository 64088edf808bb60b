import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createTestDatabase } from '../test-support/postgres-cluster.ts';
import { openLowdbStore } from './lowdb-store.ts';
import { openPostgresStore } from './postgres/postgres-store.ts';
import { describeStoreContract } from './store-contract.ts';

// One contract, every adapter: the embedded files in a fresh DATA_DIR, and PostgreSQL in a fresh
// database of the test run's throwaway cluster (api/test-support/postgres-global-setup.ts).
describeStoreContract('embedded', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-contract-'));
  return {
    open: () => openLowdbStore(dataDir),
    writerArgs: ['embedded', dataDir],
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
});

describeStoreContract('postgres', async () => {
  const database = await createTestDatabase(inject('postgresBaseUrl'));
  return {
    open: async () => (await openPostgresStore(database.url)).adapter,
    writerArgs: ['postgres', database.url],
    remove: () => database.drop(),
  };
});
