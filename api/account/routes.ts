import type Router from '@koa/router';
import * as v from 'valibot';
import { strictFields } from '../../clinical/index.ts';
import { AUDIT_ACTION_FAMILIES, AUDIT_ACTIONS, type ActivityItem } from '../../contracts/audit.ts';
import { requireAuth } from '../auth/authenticate.ts';
import { publicUser } from '../auth/routes.ts';
import { licenseField, nameField } from '../auth/schemas.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import type { FhirRouteDeps } from '../fhir/routes.ts';
import { jsonObjectBody } from '../http/json-object-body.ts';
import { validate } from '../http/validate.ts';
import { EXPORT_BUSY_CLINICIAN_MESSAGE, EXPORT_BUSY_INSTANCE_MESSAGE, SESSION_INVALID_MESSAGE } from '../messages.ts';
import type { ChainedLine } from '../audit/chain.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { Store } from '../storage/store.ts';
import type { AppState } from '../state.ts';
import { accountExportZip } from './data-export.ts';
import {
  DEFAULT_EXPORTS_PER_CLINICIAN,
  DEFAULT_EXPORTS_PER_INSTANCE,
  exportSlots,
  type ExportLimits,
} from './export-slots.ts';
import { reauthenticate, type ReauthenticationCheck } from './reauthenticate.ts';
import { auditContext, type AuditRequestContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

/** DELETE /api/account carries the password in a JSON body (the body parser reads no other DELETE's). */
export const isAccountDeletion = (ctx: { method: string; path: string }) =>
  ctx.method === 'DELETE' && /^\/api\/account\/?$/i.test(ctx.path);

export const ACTIVITY_DEFAULT_LIMIT = 50;
/** Retry-After of an export refused because the clinician's own is still running (it takes seconds to minutes). */
export const EXPORT_BUSY_CLINICIAN_RETRY_SECONDS = 30;
/** Retry-After of an export refused because the instance runs as many as it may. */
export const EXPORT_BUSY_INSTANCE_RETRY_SECONDS = 10;
export const ACTIVITY_MAX_LIMIT = 200;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface AccountRouteDeps {
  store: Store;
  audit: AuditLog;
  now: () => Date;
  limiter: SignInLimiter;
  /** ACCOUNT_DELETION_GRACE_DAYS: 0 erases at once. */
  deletionGraceDays?: number;
  fhir?: Pick<FhirRouteDeps, 'mrnSystem' | 'releaseVersion' | 'newId'>;
  /** How "Delete my account" proves it is the clinician now (reauthenticate.ts); the password by default. */
  reauthenticate?: ReauthenticationCheck;
  /** The server log's error line (an export that fails part way, after its answer has begun). */
  logError?: (error: unknown) => void;
  /** How many account exports may run at once (EXPORTS_PER_CLINICIAN, EXPORTS_PER_INSTANCE). */
  exportLimits?: ExportLimits;
}

const profileSchema = strictFields({ name: v.optional(nameField), license: v.optional(licenseField) }, {});
const deleteSchema = strictFields(
  { password: v.optional(v.pipe(v.string('password must be text'), v.maxLength(1024, 'Password is too long'))) },
  {},
);
const ACTIONS_AND_FAMILIES: readonly string[] = [...AUDIT_ACTIONS, ...AUDIT_ACTION_FAMILIES];
const activityQuerySchema = strictFields(
  {
    action: v.optional(v.picklist(ACTIONS_AND_FAMILIES, `action must be one of: ${ACTIONS_AND_FAMILIES.join(', ')}`)),
    before: v.optional(
      v.pipe(
        v.string('before must be given once'),
        v.regex(/^(?:[0-9a-f]{64}|[1-9]\d{0,17})$/, 'before must be the "next" of the page before'),
      ),
    ),
    limit: v.optional(
      v.pipe(
        v.string(`limit must be a whole number from 1 to ${ACTIVITY_MAX_LIMIT}`),
        v.regex(/^\d{1,3}$/, `limit must be a whole number from 1 to ${ACTIVITY_MAX_LIMIT}`),
        v.transform(Number),
        v.minValue(1, `limit must be a whole number from 1 to ${ACTIVITY_MAX_LIMIT}`),
        v.maxValue(ACTIVITY_MAX_LIMIT, `limit must be a whole number from 1 to ${ACTIVITY_MAX_LIMIT}`),
      ),
      String(ACTIVITY_DEFAULT_LIMIT),
    ),
  },
  {},
);

/** A line as "Activity" shows it: the event, the request and the address; never the actor's name. */
const activityItem = (line: ChainedLine): ActivityItem => ({
  time: line.time,
  action: line.action,
  recordType: line.recordType ?? null,
  recordId: line.recordId ?? null,
  outcome: line.outcome ?? null,
  requestId: line.requestId ?? null,
  address: line.address ?? null,
});

/**
 * The clinician's own data (docs/API.md#my-data): correct the profile, download everything, read their
 * audit trail, delete the account.
 */
export function accountRoutes(deps: AccountRouteDeps): Router<AppState> {
  const router = apiRouter('/api/account');
  const check = deps.reauthenticate ?? reauthenticate({ limiter: deps.limiter, now: deps.now });
  const account = async (ctx: Parameters<typeof requireAuth>[0]) => {
    const { userId } = requireAuth(ctx);
    const user = await deps.store.findUserById(userId);
    return user ?? ctx.throw(401, SESSION_INVALID_MESSAGE);
  };

  router.patch('/', access.signedIn, async (ctx) => {
    const user = await account(ctx);
    const changes = validate(ctx, profileSchema, jsonObjectBody(ctx), ['name', 'license']);
    const updated = await deps.store.updateProfile(user.id, changes);
    if (!updated) return ctx.throw(401, SESSION_INVALID_MESSAGE);
    await deps.audit.record(
      {
        actor: user.id,
        action: 'account.update',
        recordType: 'user',
        recordId: user.id,
        outcome: 'success',
      },
      auditContext(ctx),
    );
    ctx.body = publicUser(updated);
  });

  const exports = exportSlots(
    deps.exportLimits ?? { perClinician: DEFAULT_EXPORTS_PER_CLINICIAN, perInstance: DEFAULT_EXPORTS_PER_INSTANCE },
  );
  router.get('/export', access.patientData, async (ctx) => {
    const user = await account(ctx);
    // A slot first: one over a cap is told to wait, and nothing is read or recorded for it.
    const slot = exports.take(user.id);
    if (!slot.ok) {
      const clinician = slot.full === 'clinician';
      ctx.set(
        'Retry-After',
        String(clinician ? EXPORT_BUSY_CLINICIAN_RETRY_SECONDS : EXPORT_BUSY_INSTANCE_RETRY_SECONDS),
      );
      return clinician
        ? ctx.throw(429, EXPORT_BUSY_CLINICIAN_MESSAGE)
        : ctx.throw(503, EXPORT_BUSY_INSTANCE_MESSAGE, { expose: true });
    }
    let streaming = false;
    try {
      const now = deps.now();
      await deps.audit.record(
        {
          actor: user.id,
          action: 'account.export',
          recordType: 'user',
          recordId: user.id,
          outcome: 'success',
        },
        auditContext(ctx),
      );
      const zip = accountExportZip(
        { store: deps.store, audit: deps.audit, fhir: deps.fhir ?? {}, now, logError: deps.logError },
        user,
      );
      // Given back when the ZIP is done, fails, or is dropped because the client went away (Koa destroys it).
      zip.once('close', slot.release);
      ctx.res.once('close', slot.release);
      ctx.status = 200;
      ctx.type = 'application/zip';
      ctx.set('Content-Disposition', `attachment; filename="sgx-my-data-${now.toISOString().slice(0, 10)}.zip"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = zip;
      streaming = true;
    } finally {
      if (!streaming) slot.release();
    }
  });

  router.get('/activity', access.patientData, async (ctx) => {
    const user = await account(ctx);
    const query = validate(ctx, activityQuerySchema, { ...ctx.query }, ['action', 'before', 'limit']);
    const page = await deps.audit.listByActor({
      actor: user.id,
      action: query.action,
      before: query.before,
      limit: query.limit,
    });
    // Reading the trail is itself recorded, after the page is read (so it is not on the page it records).
    await deps.audit.record(
      { actor: user.id, action: 'audit.read', recordType: 'audit', outcome: 'success' },
      auditContext(ctx),
    );
    ctx.body = { items: page.items.map(activityItem), next: page.next };
  });

  /**
   * "Delete my account": the password again (or what reauthenticate.ts asks of other accounts), then
   * everything of the account goes at once; with a grace period it is disabled at once (every session
   * ended) and erased when the period is over. 204 either way: the caller is signed out.
   */
  router.delete('/', access.signedIn, async (ctx) => {
    const user = await account(ctx);
    const proof = validate(ctx, deleteSchema, ctx.request.body ?? {}, ['password']);
    const proven = await check(ctx, user, proof);
    if (!proven.ok) {
      await deps.audit.record(
        {
          actor: user.id,
          action: 'account.delete',
          recordType: 'user',
          recordId: user.id,
          outcome: 'failure',
        },
        auditContext(ctx),
      );
      const issues = proven.field ? [{ field: proven.field, message: proven.message }] : undefined;
      return ctx.throw(proven.status, proven.message, issues ? { issues } : {});
    }
    const graceDays = deps.deletionGraceDays ?? 0;
    const at = deps.now();
    await deps.audit.record(
      {
        actor: user.id,
        action: 'account.delete',
        recordType: 'user',
        recordId: user.id,
        outcome: 'success',
        ...(graceDays > 0 ? { detail: { graceDays } } : {}),
      },
      auditContext(ctx),
    );
    if (graceDays > 0) {
      await deps.store.scheduleErasure(user.id, {
        requestedAt: at.toISOString(),
        eraseAfter: new Date(at.getTime() + graceDays * DAY_MS).toISOString(),
      });
    } else {
      await eraseAccount(deps, user.id, user.email, user.id, auditContext(ctx));
    }
    ctx.status = 204;
  });

  return router;
}

/**
 * Erases an account now (at once, or when its grace period is over: the maintenance job) and writes the
 * one audit line that says so, with counts only. The sign-in failure count kept for its e-mail goes too.
 */
export async function eraseAccount(
  deps: Pick<AccountRouteDeps, 'store' | 'audit' | 'limiter'>,
  userId: string,
  email: string,
  actor: string,
  origin: AuditRequestContext | null,
): Promise<boolean> {
  const erased = await deps.store.eraseAccount(userId);
  if (!erased) return false;
  await deps.limiter.recordSuccess(email); // a success clears the e-mail's count (rate_limits holds the e-mail)
  await deps.audit.record(
    {
      actor,
      action: 'account.erase',
      recordType: 'user',
      recordId: userId,
      outcome: 'success',
      detail: { ...erased },
    },
    origin,
  );
  return true;
}
