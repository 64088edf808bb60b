import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import * as v from 'valibot';
import { strictFields } from '../../clinical/index.ts';
import type { ExportRecord as PublicExport } from '../../contracts/records.ts';
import { requireAuth } from '../auth/authenticate.ts';
import type { Next } from 'koa';
import { canonicalJson, idempotentAnswer, idempotentCreate, markAnswered, sha256 } from '../http/idempotency.ts';
import { readRawBody } from '../http/raw-body.ts';
import { isRecordId, recordIdParam } from '../http/record-id.ts';
import { validate } from '../http/validate.ts';
import {
  EXPORT_NOT_FOUND_MESSAGE,
  EXPORT_TOO_LARGE_MESSAGE,
  EXPORT_WRONG_TYPE_MESSAGE,
  HISTORY_ENTRY_NOT_FOUND_MESSAGE,
  NOT_A_PDF_MESSAGE,
  PATIENT_NOT_FOUND_MESSAGE,
} from '../messages.ts';
import type { AuditAction } from '../../contracts/audit.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { ExportRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppContext, AppState } from '../state.ts';
import { auditContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

export const EXPORT_MAX_BYTES = 2 * 1024 * 1024;
export const FILE_NAME_MAX_LENGTH = 100;

const PDF_HEADER = Buffer.from('%PDF-', 'latin1');
const PDF_TRAILER = Buffer.from('%%EOF', 'latin1');
/** Where `%%EOF` must appear: within the last 1024 bytes (readers look for it there). */
const PDF_TRAILER_WINDOW = 1024;

/** Query values arrive as text, once each; an empty value is the same as none. */
const queryText = (name: string, max: number, tooLong: string) =>
  v.optional(
    v.pipe(
      v.string(`${name} must be given once`),
      v.maxLength(max, tooLong),
      v.transform((text) => text || undefined),
    ),
  );
const ID_MAX_LENGTH = 100;
const createQuerySchema = strictFields(
  {
    patientId: queryText('patientId', ID_MAX_LENGTH, 'patientId is too long'),
    calculationId: queryText('calculationId', ID_MAX_LENGTH, 'calculationId is too long'),
    fileName: queryText(
      'fileName',
      FILE_NAME_MAX_LENGTH,
      `fileName must be at most ${FILE_NAME_MAX_LENGTH} characters`,
    ),
  },
  {},
);
const listQuerySchema = strictFields({ patientId: queryText('patientId', ID_MAX_LENGTH, 'patientId is too long') }, {});

/**
 * The stored name of an export: letters, digits, dot, dash and underscore only (each run of other
 * characters becomes one dash), no dot or dash at either end of the name before `.pdf`, ending in
 * `.pdf`, at most 100 characters. Nothing usable left (or nothing given): `notes-<YYYY-MM-DD>.pdf`.
 */
export function exportFileName(requested: string | undefined, now: Date): string {
  const fallback = `notes-${now.toISOString().slice(0, 10)}.pdf`;
  const stem = (requested ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.pdf$/i, '')
    .slice(0, FILE_NAME_MAX_LENGTH - '.pdf'.length)
    .replace(/^[.-]+|[.-]+$/g, '');
  return /[A-Za-z0-9]/.test(stem) ? `${stem}.pdf` : fallback;
}

/** The upload reads its own body (raw, with its own limit): the JSON body parser leaves it unread. */
export function isExportUpload(ctx: { method: string; path: string }): boolean {
  return ctx.method === 'POST' && /^\/api\/exports\/?$/i.test(ctx.path);
}

/** A PDF starts with `%PDF-` and has `%%EOF` in its last 1024 bytes. */
export function looksLikePdf(bytes: Buffer): boolean {
  if (bytes.length < PDF_HEADER.length || !bytes.subarray(0, PDF_HEADER.length).equals(PDF_HEADER)) return false;
  return bytes.subarray(Math.max(0, bytes.length - PDF_TRAILER_WINDOW)).includes(PDF_TRAILER);
}

/** The export as the API shows it (the owner is implied: it is always the caller). */
export function publicExport({ ownerId: _ownerId, ...record }: ExportRecord): PublicExport {
  return record;
}

export function exportRoutes(deps: { store: Store; audit: AuditLog; now: () => Date }): Router<AppState> {
  const router = apiRouter('/api/exports');
  /** One audit line per export action: who, what, which export, and whether it went through. */
  const audit = (
    ctx: AppContext,
    actor: string,
    action: AuditAction,
    recordId: string | undefined,
    succeeded: boolean,
  ) =>
    deps.audit.record(
      { actor, action, recordType: 'export', recordId, outcome: succeeded ? 'success' : 'failure' },
      auditContext(ctx),
    );

  /** The upload's body, read once (by the key's fingerprint or by the handler), never past the limit. */
  const uploads = new WeakMap<AppContext, Promise<Buffer | 'too_large'>>();
  const readUpload = (ctx: AppContext) => {
    let read = uploads.get(ctx);
    if (!read) {
      read = readRawBody(ctx.req, EXPORT_MAX_BYTES);
      uploads.set(ctx, read);
    }
    return read;
  };
  const queries = new WeakMap<AppContext, v.InferOutput<typeof createQuerySchema>>();

  // Everything that can be checked without the body is checked first: a refused upload is not read
  // (Node drops an unread body once the answer is sent), and the body is read only up to the limit.
  const checkUpload = async (ctx: AppContext, next: Next) => {
    requireAuth(ctx);
    if (ctx.request.type.trim().toLowerCase() !== 'application/pdf') return ctx.throw(415, EXPORT_WRONG_TYPE_MESSAGE);
    queries.set(ctx, validate(ctx, createQuerySchema, { ...ctx.query }, ['patientId', 'calculationId', 'fileName']));
    await next();
  };
  // With an Idempotency-Key the body is read before the key is claimed (it is part of the request's
  // fingerprint), so a keyed upload's 404 comes after its 413.
  const idempotency = idempotentCreate({
    ...deps,
    fingerprint: async (ctx) => {
      const bytes = await readUpload(ctx);
      if (bytes === 'too_large') return ctx.throw(413, EXPORT_TOO_LARGE_MESSAGE);
      return sha256('POST /api/exports', canonicalJson(queries.get(ctx)), ctx.request.type.toLowerCase(), bytes);
    },
  });

  router.post('/', access.patientData, checkUpload, idempotency, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const query = queries.get(ctx)!;
    // An id of another form names no record, and is not looked up (PostgreSQL refuses a NUL in a text).
    if (
      query.patientId !== undefined &&
      !(isRecordId(query.patientId) && (await deps.store.findPatient(userId, query.patientId)))
    ) {
      await audit(ctx, userId, 'export.create', undefined, false);
      return ctx.throw(404, PATIENT_NOT_FOUND_MESSAGE);
    }
    if (
      query.calculationId !== undefined &&
      !(isRecordId(query.calculationId) && (await deps.store.findCalculation(userId, query.calculationId)))
    ) {
      await audit(ctx, userId, 'export.create', undefined, false);
      return ctx.throw(404, HISTORY_ENTRY_NOT_FOUND_MESSAGE);
    }
    const bytes = await readUpload(ctx);
    if (bytes === 'too_large') return ctx.throw(413, EXPORT_TOO_LARGE_MESSAGE);
    if (!looksLikePdf(bytes)) return ctx.throw(400, NOT_A_PDF_MESSAGE);

    const now = deps.now();
    const record: ExportRecord = {
      id: randomUUID(),
      ownerId: userId,
      patientId: query.patientId ?? null,
      calculationId: query.calculationId ?? null,
      fileName: exportFileName(query.fileName, now),
      sizeBytes: bytes.length,
      createdAt: now.toISOString(),
    };
    const body = publicExport(record);
    await deps.store.saveExport(record, bytes, idempotentAnswer(ctx, 201, body));
    markAnswered(ctx);
    await audit(ctx, userId, 'export.create', record.id, true);
    ctx.status = 201;
    ctx.body = body;
  });

  router.get('/', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const query = validate(ctx, listQuerySchema, { ...ctx.query }, ['patientId']);
    if (
      query.patientId !== undefined &&
      !(isRecordId(query.patientId) && (await deps.store.findPatient(userId, query.patientId)))
    ) {
      await audit(ctx, userId, 'export.list', undefined, false);
      return ctx.throw(404, PATIENT_NOT_FOUND_MESSAGE);
    }
    const exports = await deps.store.listExports(userId, { patientId: query.patientId });
    await audit(ctx, userId, 'export.list', undefined, true);
    ctx.body = { exports: exports.map(publicExport) };
  });

  router.get('/:id', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const id = recordIdParam(ctx, ctx.params.id, EXPORT_NOT_FOUND_MESSAGE);
    const record = await deps.store.findExport(userId, id);
    const bytes = record ? await deps.store.readExportFile(userId, record.id) : undefined;
    await audit(ctx, userId, 'export.read', id, Boolean(record && bytes));
    if (!record || !bytes) return ctx.throw(404, EXPORT_NOT_FOUND_MESSAGE);
    ctx.status = 200;
    ctx.type = 'application/pdf';
    // fileName is sanitised to [A-Za-z0-9._-] when stored, so it needs no quoting or encoding here.
    ctx.set('Content-Disposition', `attachment; filename="${record.fileName}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = bytes;
  });

  router.delete('/:id', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const id = recordIdParam(ctx, ctx.params.id, EXPORT_NOT_FOUND_MESSAGE);
    const deleted = await deps.store.deleteExport(userId, id);
    await audit(ctx, userId, 'export.delete', id, deleted);
    if (!deleted) return ctx.throw(404, EXPORT_NOT_FOUND_MESSAGE);
    ctx.status = 204;
  });

  return router;
}
