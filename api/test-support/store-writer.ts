// A child process for the storage contract's "killed process" test (api/storage/store-contract.ts):
// opens the given storage and writes patients, calculations and exports from four loops at once,
// printing `ack <type> <id>` (for an export, also the sha256 of its bytes) only after each write's
// promise resolved, until it is killed.
// Usage (built by vite first): node store-writer.js <embedded|postgres> <DATA_DIR|url> <owner id>
import { createHash } from 'node:crypto';
import { openLowdbStore } from '../storage/lowdb-store.ts';
import { createStore } from '../storage/policy.ts';
import { openPostgresStore } from '../storage/postgres/postgres-store.ts';

/** Bytes for an export, different for each and with 0x00 and 0xFF in them. */
function exportBytes(id: string): Buffer {
  return Buffer.concat([Buffer.from([0x25, 0x00, 0xff]), Buffer.from(id), Buffer.alloc(2048, 0xff)]);
}

async function main() {
  const [kind, target, ownerId] = process.argv.slice(2);
  if (!target || !ownerId || (kind !== 'embedded' && kind !== 'postgres')) {
    throw new Error('usage: store-writer <embedded|postgres> <DATA_DIR|url> <owner id>');
  }
  const adapter = kind === 'embedded' ? await openLowdbStore(target) : (await openPostgresStore(target)).adapter;
  const store = createStore(adapter);
  // Writes to a pipe are synchronous on Linux: a printed ack was sent before any later step.
  const ack = (...words: string[]) => process.stdout.write(`ack ${words.join(' ')}\n`);
  process.stdout.write('ready\n');
  let n = 0;
  const loop = async (worker: number) => {
    for (;;) {
      const id = `w${worker}-${(n += 1)}`;
      const at = new Date().toISOString();
      switch (n % 3) {
        case 0:
          await store.createPatient({
            id: `p-${id}`,
            ownerId,
            displayName: `Patient ${id}`,
            mrn: null,
            yearOfBirth: null,
            ageGroup: null,
            weightKg: 70.5,
            notes: null,
            createdAt: at,
            updatedAt: at,
          });
          ack('patient', `p-${id}`);
          break;
        case 1:
          await store.saveCalculation({
            id: `c-${id}`,
            ownerId,
            patientId: null,
            toolType: 'dose_calculator',
            inputs: { bodyWeight: 70.5 },
            result: { kind: 'dose', totalDoseMg: 141 },
            createdAt: at,
          });
          ack('calculation', `c-${id}`);
          break;
        default: {
          const bytes = exportBytes(`e-${id}`);
          const record = { id: `e-${id}`, ownerId, patientId: null, calculationId: null, createdAt: at };
          await store.saveExport({ ...record, fileName: `${id}.pdf`, sizeBytes: bytes.length }, bytes);
          ack('export', `e-${id}`, createHash('sha256').update(bytes).digest('hex'));
        }
      }
    }
  };
  await Promise.all([0, 1, 2, 3].map(loop));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
