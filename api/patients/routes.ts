import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import { newPatientSchema, PATIENT_FIELD_ORDER, patientChangesSchema } from '../../clinical/index.ts';
import type { Patient } from '../../contracts/records.ts';
import { requireAuth } from '../auth/authenticate.ts';
import { idempotentAnswer, idempotentCreate, jsonFingerprint, markAnswered } from '../http/idempotency.ts';
import { jsonObjectBody } from '../http/json-object-body.ts';
import { clinicalTexts } from '../http/language.ts';
import { recordIdParam } from '../http/record-id.ts';
import { isStorableText } from '../http/storable-text.ts';
import { validate } from '../http/validate.ts';
import { PATIENT_NOT_FOUND_MESSAGE, searchTooLongMessage, UNSTORABLE_TEXT_MESSAGE } from '../messages.ts';
import type { AuditAction } from '../../contracts/audit.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { PatientRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppContext, AppState } from '../state.ts';
import { auditContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

export const SEARCH_MAX_LENGTH = 100;

/**
 * The patient as the API shows it (the owner is implied: it is always the caller). The EHR link a launch
 * keeps is the server's (the FHIR export's reference, docs/fhir.md#patient): neither shown nor settable here.
 */
export function publicPatient({ ownerId: _ownerId, ehrPatient: _ehrPatient, ...patient }: PatientRecord): Patient {
  return patient;
}

export function patientRoutes(deps: { store: Store; audit: AuditLog; now: () => Date }): Router<AppState> {
  const router = apiRouter('/api/patients');
  const currentYear = () => deps.now().getUTCFullYear();
  /** One audit line per patient action: who, what, which record, and whether it was found. */
  const audit = (ctx: AppContext, actor: string, action: AuditAction, recordId: string | undefined, found: boolean) =>
    deps.audit.record(
      { actor, action, recordType: 'patient', recordId, outcome: found ? 'success' : 'failure' },
      auditContext(ctx),
    );

  router.get('/', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const q = typeof ctx.query.q === 'string' ? ctx.query.q : undefined;
    if (q !== undefined && q.length > SEARCH_MAX_LENGTH) ctx.throw(400, searchTooLongMessage(SEARCH_MAX_LENGTH));
    if (q !== undefined && !isStorableText(q)) ctx.throw(400, UNSTORABLE_TEXT_MESSAGE);
    const patients = await deps.store.listPatients(userId, q);
    await audit(ctx, userId, q ? 'patient.search' : 'patient.list', undefined, true);
    ctx.body = { patients: patients.map(publicPatient) };
  });

  const idempotency = idempotentCreate({ ...deps, fingerprint: jsonFingerprint('POST /api/patients') });
  router.post('/', access.patientData, idempotency, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const schema = newPatientSchema(currentYear(), clinicalTexts(ctx));
    const input = validate(ctx, schema, ctx.request.body, PATIENT_FIELD_ORDER);
    const at = deps.now().toISOString();
    const patient: PatientRecord = {
      id: randomUUID(),
      ownerId: userId,
      displayName: input.displayName,
      mrn: input.mrn ?? null,
      yearOfBirth: input.yearOfBirth ?? null,
      ageGroup: input.ageGroup ?? null,
      weightKg: input.weightKg ?? null,
      notes: input.notes ?? null,
      createdAt: at,
      updatedAt: at,
    };
    const body = publicPatient(patient);
    await deps.store.createPatient(patient, idempotentAnswer(ctx, 201, body));
    markAnswered(ctx);
    await audit(ctx, userId, 'patient.create', patient.id, true);
    ctx.status = 201;
    ctx.body = body;
  });

  router.get('/:id', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const id = recordIdParam(ctx, ctx.params.id, PATIENT_NOT_FOUND_MESSAGE);
    const patient = await deps.store.findPatient(userId, id);
    await audit(ctx, userId, 'patient.read', id, Boolean(patient));
    if (!patient) return ctx.throw(404, PATIENT_NOT_FOUND_MESSAGE);
    ctx.body = publicPatient(patient);
  });

  router.patch('/:id', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const id = recordIdParam(ctx, ctx.params.id, PATIENT_NOT_FOUND_MESSAGE);
    const body = jsonObjectBody(ctx);
    if (!(await deps.store.findPatient(userId, id))) {
      await audit(ctx, userId, 'patient.update', id, false);
      return ctx.throw(404, PATIENT_NOT_FOUND_MESSAGE);
    }
    const changes = validate(ctx, patientChangesSchema(currentYear(), clinicalTexts(ctx)), body, PATIENT_FIELD_ORDER);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const patient = await deps.store.updatePatient(userId, id, defined, deps.now().toISOString());
    if (!patient) return ctx.throw(404, PATIENT_NOT_FOUND_MESSAGE);
    await audit(ctx, userId, 'patient.update', patient.id, true);
    ctx.body = publicPatient(patient);
  });

  router.delete('/:id', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const id = recordIdParam(ctx, ctx.params.id, PATIENT_NOT_FOUND_MESSAGE);
    const deleted = await deps.store.deletePatient(userId, id);
    await audit(ctx, userId, 'patient.delete', id, deleted);
    if (!deleted) return ctx.throw(404, PATIENT_NOT_FOUND_MESSAGE);
    ctx.status = 204;
  });

  return router;
}
