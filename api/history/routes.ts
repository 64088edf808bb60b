import type Router from '@koa/router';
import * as v from 'valibot';
import { strictFields } from '../../clinical/index.ts';
import { requireAuth } from '../auth/authenticate.ts';
import { isRecordId, recordIdParam } from '../http/record-id.ts';
import { validate } from '../http/validate.ts';
import { HISTORY_ENTRY_NOT_FOUND_MESSAGE, PATIENT_NOT_FOUND_MESSAGE } from '../messages.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import { TOOL_TYPES, type CalculationRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppState } from '../state.ts';
import { auditContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

export const HISTORY_DEFAULT_PAGE_SIZE = 20;
export const HISTORY_MAX_PAGE_SIZE = 100;
const PAGE_OR_CURSOR_MESSAGE = 'Send page or cursor, not both';

/** Query strings arrive as text: whole numbers are parsed here, strictly. */
const wholeNumberText = (min: number, max: number, message: string) =>
  v.pipe(
    v.string(message),
    v.regex(/^\d{1,6}$/, message),
    v.transform(Number),
    v.minValue(min, message),
    v.maxValue(max, message),
  );

/**
 * A history cursor as the API shows it: opaque text (base64url of `h:` and the store's position of the
 * last entry of the previous page), so clients pass back what they were given rather than build one.
 */
export const encodeHistoryCursor = (position: string) => Buffer.from(`h:${position}`).toString('base64url');
const CURSOR_MESSAGE = 'cursor must be the nextCursor of an earlier history answer';
const cursorSchema = v.pipe(
  v.string(CURSOR_MESSAGE),
  v.regex(/^[A-Za-z0-9_-]{1,40}$/, CURSOR_MESSAGE),
  v.transform((text) => /^h:(\d{1,18})$/.exec(Buffer.from(text, 'base64url').toString('latin1'))?.[1]),
  v.string(CURSOR_MESSAGE),
);

const historyQuerySchema = strictFields(
  {
    patientId: v.optional(v.pipe(v.string('patientId must be given once'), v.maxLength(100, 'patientId is too long'))),
    toolType: v.optional(v.picklist(TOOL_TYPES, `toolType must be one of: ${TOOL_TYPES.join(', ')}`)),
    page: v.optional(wholeNumberText(1, 100_000, 'page must be a whole number from 1')),
    cursor: v.optional(cursorSchema),
    pageSize: v.optional(
      wholeNumberText(1, HISTORY_MAX_PAGE_SIZE, `pageSize must be a whole number from 1 to ${HISTORY_MAX_PAGE_SIZE}`),
      String(HISTORY_DEFAULT_PAGE_SIZE),
    ),
  },
  {},
);

export function publicEntry({ ownerId: _ownerId, ...entry }: CalculationRecord) {
  return entry;
}

export function historyRoutes(deps: { store: Store; audit: AuditLog }): Router<AppState> {
  const router = apiRouter('/api/history');

  router.get('/', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const query = validate(ctx, historyQuerySchema, { ...ctx.query }, [
      'patientId',
      'toolType',
      'page',
      'cursor',
      'pageSize',
    ]);
    if (query.page !== undefined && query.cursor !== undefined) {
      ctx.throw(400, PAGE_OR_CURSOR_MESSAGE, { issues: [{ field: 'cursor', message: PAGE_OR_CURSOR_MESSAGE }] });
    }
    // An id of another form names no record, and is not looked up (PostgreSQL refuses a NUL in a text).
    if (
      query.patientId !== undefined &&
      !(isRecordId(query.patientId) && (await deps.store.findPatient(userId, query.patientId)))
    ) {
      return ctx.throw(404, PATIENT_NOT_FOUND_MESSAGE);
    }
    // By cursor (keyset: the same cost at any depth), or by page number (kept for existing clients; its
    // cost grows with the page's depth). Without either, the first page, which is both.
    const page = query.cursor === undefined ? (query.page ?? 1) : undefined;
    const { items, total, nextCursor } = await deps.store.listCalculationsPage(userId, {
      patientId: query.patientId,
      toolType: query.toolType,
      limit: query.pageSize,
      ...(page === undefined ? { after: query.cursor } : { offset: (page - 1) * query.pageSize }),
    });
    await deps.audit.record(
      {
        actor: userId,
        action: 'calculation.list',
        recordType: 'calculation',
        outcome: 'success',
      },
      auditContext(ctx),
    );
    ctx.body = {
      items: items.map(publicEntry),
      ...(page === undefined ? {} : { page }),
      pageSize: query.pageSize,
      total,
      nextCursor: nextCursor === null ? null : encodeHistoryCursor(nextCursor),
    };
  });

  router.get('/:id', access.patientData, async (ctx) => {
    const { userId } = requireAuth(ctx);
    const id = recordIdParam(ctx, ctx.params.id, HISTORY_ENTRY_NOT_FOUND_MESSAGE);
    const entry = await deps.store.findCalculation(userId, id);
    await deps.audit.record(
      {
        actor: userId,
        action: 'calculation.read',
        recordType: 'calculation',
        recordId: id,
        outcome: entry ? 'success' : 'failure',
      },
      auditContext(ctx),
    );
    if (!entry) return ctx.throw(404, HISTORY_ENTRY_NOT_FOUND_MESSAGE);
    ctx.body = publicEntry(entry);
  });

  return router;
}
