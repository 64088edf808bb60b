import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ExportPatient, ExportPdf } from '../../fhir/index.ts';
import { calculationBundle, exportPatient, type FhirRouteDeps } from '../fhir/routes.ts';
import { publicEntry } from '../history/routes.ts';
import { publicPatient } from '../patients/routes.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { CalculationRecord, ExportRecord, PatientRecord, UserRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import { zipStream, type ZipEntry } from './zip-writer.ts';

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

/** account.json, streamed: the profile and sessions whole, every list an item at a time. */
async function* accountJson(
  deps: ExportDeps,
  user: UserRecord,
  patients: readonly PatientRecord[],
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
  yield '  "patients": ';
  yield* jsonList(patients, publicPatient);
  yield ',\n  "history": ';
  yield* jsonList(deps.store.calculationsOf(user.id), publicEntry);
  yield ',\n  "exports": ';
  yield* jsonList(exports, (record) => ({
    id: record.id,
    patientId: record.patientId,
    calculationId: record.calculationId,
    fileName: record.fileName,
    sizeBytes: record.sizeBytes,
    createdAt: record.createdAt,
    file: exportPdfPath(record),
  }));
  yield ',\n';
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

/** Raw PDF bytes taken at a time for the Bundle's base64: a multiple of 3, so the pieces join without padding. */
const BASE64_PIECE_BYTES = 3 * 16 * 1024;

/**
 * A Bundle's JSON text (as "Download FHIR" writes it) in pieces. With a notes PDF, the Bundle is written
 * with a stand-in for the PDF's base64 and the base64 is put in its place a piece at a time: the PDF
 * (up to 2 MB) is held once, never also as one base64 string and the JSON text around it.
 */
function bundleText(bundle: unknown, pdf: { stand: string; bytes: Buffer } | null): Buffer | AsyncIterable<string> {
  const text = `${JSON.stringify(bundle, null, 2)}\n`;
  if (!pdf) return Buffer.from(text, 'utf8');
  const at = text.indexOf(pdf.stand);
  if (at < 0 || text.indexOf(pdf.stand, at + 1) >= 0) throw new Error('The Bundle does not hold its PDF once');
  return (async function* () {
    yield text.slice(0, at);
    for (let from = 0; from < pdf.bytes.length; from += BASE64_PIECE_BYTES) {
      yield pdf.bytes.toString('base64', from, Math.min(from + BASE64_PIECE_BYTES, pdf.bytes.length));
    }
    yield text.slice(at + pdf.stand.length);
  })();
}

/** The ZIP's entries in order, each made only when the ZIP asks for it. */
async function* exportEntries(deps: ExportDeps, user: UserRecord): AsyncGenerator<ZipEntry> {
  const patients = await deps.store.listPatients(user.id);
  const exports = [...(await deps.store.listExports(user.id))].reverse(); // oldest first
  yield { name: 'README.txt', data: Buffer.from(README, 'utf8') };
  yield { name: 'account.json', data: accountJson(deps, user, patients, exports) };
  for (const record of exports) {
    const bytes = await deps.store.readExportFile(user.id, record.id);
    if (bytes) yield { name: exportPdfPath(record), data: bytes, store: true }; // PDFs are compressed already
  }
  // The newest notes PDF of each calculation goes into its Bundle, as "Download FHIR" does.
  const newestPdf = new Map<string, ExportRecord>();
  for (const record of exports) if (record.calculationId) newestPdf.set(record.calculationId, record);
  const byId = new Map(patients.map((patient) => [patient.id, patient]));
  const stand = `sgx-pdf-base64-${randomUUID()}`;
  for await (const entry of deps.store.calculationsOf(user.id)) {
    if (!hasFhirBundle(entry)) continue;
    const found = entry.patientId ? byId.get(entry.patientId) : undefined;
    const patient: ExportPatient | null = found ? exportPatient(found) : null;
    const record = newestPdf.get(entry.id);
    const bytes = record ? await deps.store.readExportFile(user.id, record.id) : undefined;
    // The PDF as exportPdf (fhir/routes.ts) gives it, with the stand-in for its base64.
    const pdf: ExportPdf | null =
      record && bytes
        ? {
            fileName: record.fileName,
            createdAt: record.createdAt,
            sizeBytes: bytes.length,
            base64: stand,
            sha1Base64: createHash('sha1').update(bytes).digest('base64'),
          }
        : null;
    const outcome = calculationBundle(deps.fhir, entry, { patient, clinician: user, pdf });
    if (outcome.kind !== 'bundle') continue; // not clinical, or unreadable: GET …/fhir answers no Bundle either
    yield { name: exportFhirPath(entry), data: bundleText(outcome.bundle, pdf && bytes ? { stand, bytes } : null) };
  }
}

/**
 * "Download all my data" (GET /api/account/export): one ZIP made as it is sent (zip-writer.ts). Each
 * entry is made only once the client has taken what came before, and its data a piece at a time, so an
 * export holds a piece of one entry (a PDF, up to 2 MB, whole), zlib's window and the ZIP's directory
 * (about 100 bytes an entry), never the account. A failure part way destroys the stream (the client sees
 * a cut download, never a ZIP that looks whole); so does the client going away, which stops the reading.
 */
export function accountExportZip(deps: ExportDeps, user: UserRecord): Readable {
  const zip = zipStream(exportEntries(deps, user), { date: deps.now, level: 6, mode: 0o600 });
  zip.once('error', (error: unknown) => deps.logError?.(error));
  return zip;
}
