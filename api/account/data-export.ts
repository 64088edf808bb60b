import { once } from 'node:events';
import { Readable } from 'node:stream';
import ZipStream from 'zip-stream';
import type { ExportPatient } from '../../fhir/index.ts';
import { calculationBundle, exportPatient, exportPdf, type FhirRouteDeps } from '../fhir/routes.ts';
import { publicEntry } from '../history/routes.ts';
import { publicPatient } from '../patients/routes.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { CalculationRecord, ExportRecord, UserRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';

/** What `account.json` says it is, for a reader (or a program) meeting the file alone. */
export const ACCOUNT_EXPORT_FORMAT = 'sgx-account-export';
export const ACCOUNT_EXPORT_VERSION = 1;

/** The ZIP's file names (docs/API.md#my-data). */
export const exportPdfPath = (record: Pick<ExportRecord, 'id' | 'fileName'>) => `pdfs/${record.id}-${record.fileName}`;
export const exportFhirPath = (entry: Pick<CalculationRecord, 'id' | 'toolType' | 'createdAt'>) =>
  `fhir/sugammadex-${entry.toolType === 'bradycardia_advisor' ? 'bradycardia-risk' : 'dose'}-` +
  `${entry.createdAt.slice(0, 10)}-${entry.id}.fhir.json`;
/** The calculations that have a FHIR Bundle: the ROI calculator holds no patient data (docs/fhir.md). */
export const hasFhirBundle = (entry: Pick<CalculationRecord, 'toolType'>) => entry.toolType !== 'roi_calculator';

const README = `Your data, as the product kept it when this file was made.

account.json   your profile, your patients, every calculation in your history with its inputs and
               result as computed then, the list of PDFs you exported to notes, your sessions, and the
               audit trail's lines about your account (what was done, when, from which address).
pdfs/          the PDFs you exported to notes, exactly as stored (account.json's "exports" names each file).
fhir/          each dose calculation and bradycardia assessment as a FHIR R4 transaction Bundle, as
               "Download FHIR" makes it. ROI calculations hold no patient data and have none.
`;

interface ExportDeps {
  store: Store;
  audit: AuditLog;
  fhir: Pick<FhirRouteDeps, 'mrnSystem' | 'releaseVersion' | 'newId'>;
  now: Date;
  /** Hears a failure part way (the answer is already under way: the client sees a cut download). */
  logError?: (error: unknown) => void;
}

/** JSON text of a list, written as it is read: the list is never in memory whole. */
async function* jsonList<T>(items: AsyncIterable<T> | Iterable<T>, map: (item: T) => unknown): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const item of items) {
    yield `${first ? '\n' : ',\n'}    ${JSON.stringify(map(item))}`;
    first = false;
  }
  yield first ? ']' : '\n  ]';
}

/** account.json, streamed: the short parts whole, history and the audit lines a line at a time. */
async function* accountJson(
  deps: ExportDeps,
  user: UserRecord,
  patients: readonly ReturnType<typeof publicPatient>[],
  exports: readonly ExportRecord[],
): AsyncGenerator<string> {
  const sessions = await deps.store.listSessions(user.id);
  const part = (name: string, value: unknown) =>
    `  ${JSON.stringify(name)}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')},\n`;
  yield '{\n';
  yield part('format', ACCOUNT_EXPORT_FORMAT);
  yield part('version', ACCOUNT_EXPORT_VERSION);
  yield part('exportedAt', deps.now.toISOString());
  yield part('profile', {
    id: user.id,
    email: user.email,
    name: user.name,
    license: user.license,
    createdAt: user.createdAt,
  });
  yield part('patients', patients);
  yield '  "history": ';
  yield* jsonList(deps.store.calculationsOf(user.id), publicEntry);
  yield ',\n';
  yield part(
    'exports',
    exports.map((record) => ({
      id: record.id,
      patientId: record.patientId,
      calculationId: record.calculationId,
      fileName: record.fileName,
      sizeBytes: record.sizeBytes,
      createdAt: record.createdAt,
      file: exportPdfPath(record),
    })),
  );
  yield part(
    'sessions',
    sessions.map(({ id, createdAt, expiresAt, revokedAt }) => ({ id, createdAt, expiresAt, revokedAt })),
  );
  yield '  "audit": ';
  yield* jsonList(deps.audit.linesByActor(user.id), (line) => ({
    time: line.time,
    action: line.action,
    recordType: line.recordType ?? null,
    recordId: line.recordId ?? null,
    outcome: line.outcome ?? null,
    requestId: line.requestId ?? null,
    address: line.address ?? null,
    hash: line.hash,
  }));
  yield '\n}\n';
}

/** Text pieces as a byte stream with backpressure (each piece is made when the ZIP asks for more). */
const textStream = (pieces: AsyncIterable<string>) =>
  Readable.from(
    (async function* () {
      for await (const piece of pieces) yield Buffer.from(piece, 'utf8');
    })(),
  );

/**
 * "Download all my data" (GET /api/account/export): one ZIP made as it is sent. Entries are added one
 * after the other, each only once the one before is written and the client has taken what was waiting,
 * so memory holds one entry's piece and the ZIP's directory (about 0.5 KB an entry), never the account:
 * 100,000 history entries stream like ten. Answers the ZIP stream; a failure part way destroys it
 * (the client sees a cut download, never a ZIP that looks whole).
 */
export function accountExportZip(deps: ExportDeps, user: UserRecord): Readable {
  const zip = new ZipStream({ zlib: { level: 6 } });
  const add = async (source: Buffer | Readable, name: string, store = false) => {
    if (zip.writableNeedDrain) await once(zip, 'drain');
    await new Promise<void>((resolve, reject) =>
      zip.entry(source, { name, date: deps.now, store, mode: 0o600 }, (error) => (error ? reject(error) : resolve())),
    );
  };

  void (async () => {
    const patients = await deps.store.listPatients(user.id);
    const exports = [...(await deps.store.listExports(user.id))].reverse(); // oldest first
    await add(Buffer.from(README, 'utf8'), 'README.txt');
    await add(textStream(accountJson(deps, user, patients.map(publicPatient), exports)), 'account.json');
    for (const record of exports) {
      const bytes = await deps.store.readExportFile(user.id, record.id);
      if (bytes) await add(bytes, exportPdfPath(record), true); // PDFs are compressed already
    }
    // The newest notes PDF of each calculation goes into its Bundle, as "Download FHIR" does.
    const newestPdf = new Map<string, ExportRecord>();
    for (const record of exports) if (record.calculationId) newestPdf.set(record.calculationId, record);
    const byId = new Map(patients.map((patient) => [patient.id, patient]));
    for await (const entry of deps.store.calculationsOf(user.id)) {
      if (!hasFhirBundle(entry)) continue;
      const found = entry.patientId ? byId.get(entry.patientId) : undefined;
      const patient: ExportPatient | null = found ? exportPatient(found) : null;
      const record = newestPdf.get(entry.id);
      const bytes = record ? await deps.store.readExportFile(user.id, record.id) : undefined;
      const outcome = calculationBundle(deps.fhir, entry, {
        patient,
        clinician: user,
        pdf: record && bytes ? exportPdf(record, bytes) : null,
      });
      if (outcome.kind !== 'bundle') continue; // not clinical, or unreadable: GET …/fhir answers no Bundle either
      await add(Buffer.from(`${JSON.stringify(outcome.bundle, null, 2)}\n`, 'utf8'), exportFhirPath(entry));
    }
    zip.finalize();
  })().catch((error: unknown) => {
    deps.logError?.(error);
    zip.destroy(error as Error);
  });
  return zip;
}
