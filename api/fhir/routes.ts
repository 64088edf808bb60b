import { createHash, randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import { fhirFileName } from '../../contracts/fhir.ts';
import { buildCalculationBundle, SOFTWARE_NAME, type ExportPatient, type ExportPdf } from '../../fhir/index.ts';
import { requireAuth } from '../auth/authenticate.ts';
import { recordIdParam } from '../http/record-id.ts';
import { FHIR_NOT_CLINICAL_MESSAGE, HISTORY_ENTRY_NOT_FOUND_MESSAGE } from '../messages.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { CalculationRecord, PatientRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppState } from '../state.ts';
import { RELEASE_VERSION } from './release.ts';
import { auditContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

export const FHIR_JSON_TYPE = 'application/fhir+json';

export interface FhirRouteDeps {
  store: Store;
  audit: AuditLog;
  /** FHIR_MRN_SYSTEM (api/fhir/mrn-system.ts). */
  mrnSystem?: string;
  /** The software's release named in the Provenance; package.json's version unless a test says otherwise. */
  releaseVersion?: string;
  newId?: () => string;
}

/**
 * `GET /api/history/:id/fhir` (docs/API.md#fhir-export, docs/fhir.md): a stored calculation as a FHIR R4
 * transaction Bundle, built by fhir/ from the inputs and the result as the server computed them then. Only
 * its owner sees it: another clinician's id answers 404 like a missing one.
 */
export function fhirRoutes(deps: FhirRouteDeps): Router<AppState> {
  const router = apiRouter('/api/history');

  router.get('/:id/fhir', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const id = recordIdParam(ctx, ctx.params.id, HISTORY_ENTRY_NOT_FOUND_MESSAGE);
    const entry = await deps.store.findCalculation(userId, id);
    const audit = (succeeded: boolean) =>
      deps.audit.record(
        {
          actor: userId,
          action: 'calculation.export_fhir',
          recordType: 'calculation',
          recordId: id,
          outcome: succeeded ? 'success' : 'failure',
        },
        auditContext(ctx),
      );
    if (!entry) {
      await audit(false);
      return ctx.throw(404, HISTORY_ENTRY_NOT_FOUND_MESSAGE);
    }
    const [patient, clinician, pdf] = await Promise.all([
      patientOf(deps.store, userId, entry),
      deps.store.findUserById(userId),
      notesPdfOf(deps.store, userId, entry.id),
    ]);
    if (!clinician) throw new Error('the signed-in clinician has no account record');
    const outcome = calculationBundle(deps, entry, { patient, clinician, pdf });
    if (outcome.kind === 'not_clinical') {
      await audit(false);
      return ctx.throw(422, FHIR_NOT_CLINICAL_MESSAGE);
    }
    // A stored record the export cannot read is the server's fault, not the caller's: a 500, logged.
    if (outcome.kind === 'unreadable') throw new Error(`history entry cannot be exported: ${outcome.problem}`);
    await audit(true);
    ctx.type = FHIR_JSON_TYPE;
    ctx.set('Content-Disposition', `attachment; filename="${fhirFileName(entry)}"`);
    ctx.body = outcome.bundle;
  });

  return router;
}

/**
 * The Bundle of one stored calculation, as GET /api/history/:id/fhir answers it (the account export builds
 * one per calculation with this too).
 */
export function calculationBundle(
  deps: Pick<FhirRouteDeps, 'mrnSystem' | 'releaseVersion' | 'newId'>,
  entry: CalculationRecord,
  context: {
    patient: ExportPatient | null;
    clinician: { name: string; license: string | null };
    pdf: ExportPdf | null;
  },
) {
  return buildCalculationBundle(entry, {
    patient: context.patient,
    clinician: { name: context.clinician.name, license: context.clinician.license },
    pdf: context.pdf,
    software: { name: SOFTWARE_NAME, version: deps.releaseVersion ?? RELEASE_VERSION },
    mrnSystem: deps.mrnSystem,
    newId: deps.newId ?? randomUUID,
  });
}

/** A stored PDF as the Bundle's DocumentReference carries it. */
export function exportPdf(record: { fileName: string; createdAt: string }, bytes: Buffer): ExportPdf {
  return {
    fileName: record.fileName,
    createdAt: record.createdAt,
    sizeBytes: bytes.length,
    base64: bytes.toString('base64'),
    sha1Base64: createHash('sha1').update(bytes).digest('base64'),
  };
}

async function patientOf(store: Store, ownerId: string, entry: CalculationRecord): Promise<ExportPatient | null> {
  if (!entry.patientId) return null;
  const patient = await store.findPatient(ownerId, entry.patientId);
  return patient ? exportPatient(patient) : null;
}

/** A stored patient as the Bundle refers to them: by MRN, or, opened from an EHR, as that EHR's Patient. */
export function exportPatient(patient: PatientRecord): ExportPatient {
  return {
    displayName: patient.displayName,
    mrn: patient.mrn,
    yearOfBirth: patient.yearOfBirth,
    ehrPatient: patient.ehrPatient ?? null,
  };
}

/** The newest notes PDF exported for this calculation, if one was (and its bytes are still there). */
async function notesPdfOf(store: Store, ownerId: string, calculationId: string): Promise<ExportPdf | null> {
  const exports = await store.listExports(ownerId);
  const record = exports.find((candidate) => candidate.calculationId === calculationId);
  if (!record) return null;
  const bytes = await store.readExportFile(ownerId, record.id);
  return bytes ? exportPdf(record, bytes) : null;
}
