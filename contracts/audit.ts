import * as v from 'valibot';

/**
 * Every action the audit trail records (docs/API.md#audit-trail), one name per kind of event, grouped by
 * the word before the dot. A new kind of event is a new name here (the server's writer accepts only
 * these, and the account area's "Activity" labels each; a name it has no label for is shown as written).
 */
export const AUDIT_ACTIONS = [
  // Sign-in and the account's sessions
  'user.signup',
  'user.signin',
  'user.signout',
  'user.password_change',
  'user.signup.oidc',
  'user.signin.oidc',
  'user.signin.password',
  'user.signin.totp',
  'user.signin.passkey',
  'user.signin.recovery_code',
  'user.link.oidc',
  'user.unlink.oidc',
  'user.signup.smart',
  'user.signin.smart',
  'session.idle_timeout',
  'session.end.one',
  'session.end.others',
  'session.end.second_factor_added',
  // Second factors
  'mfa.totp.enable',
  'mfa.totp.remove',
  'mfa.passkey.add',
  'mfa.passkey.remove',
  'mfa.recovery_codes.renew',
  'mfa.recovery_code.use',
  // Patients
  'patient.list',
  'patient.search',
  'patient.create',
  'patient.read',
  'patient.update',
  'patient.delete',
  'patient.create.smart',
  'patient.update.smart',
  // History
  'calculation.create',
  'calculation.list',
  'calculation.read',
  'calculation.export_fhir',
  'calculation.send_ehr',
  // Exports to notes
  'export.create',
  'export.list',
  'export.read',
  'export.delete',
  // The clinician's own data (docs/API.md#my-data)
  'account.update',
  'account.export',
  'account.delete',
  'account.deletion_cancel',
  'account.erase',
  // The trail itself and retention
  'audit.read',
  'audit.prune',
  'history.retention',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The families an "Activity" filter may name instead of one action (`patient` = every `patient.*`). */
export const AUDIT_ACTION_FAMILIES = [
  'user',
  'session',
  'mfa',
  'patient',
  'calculation',
  'export',
  'account',
  'audit',
  'history',
] as const;
export type AuditActionFamily = (typeof AUDIT_ACTION_FAMILIES)[number];

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export const AUDIT_RECORD_TYPES = ['user', 'session', 'patient', 'calculation', 'export', 'audit'] as const;

/** One line of "Activity" (GET /api/account/activity): never a patient value, a name or an e-mail. */
export const activityItemSchema = v.object({
  time: v.string(),
  action: v.string(),
  recordType: v.nullable(v.string()),
  recordId: v.nullable(v.string()),
  outcome: v.nullable(v.string()),
  requestId: v.nullable(v.string()),
  address: v.nullable(v.string()),
});
export type ActivityItem = v.InferOutput<typeof activityItemSchema>;

/** A page of the caller's own lines, newest first; `next` asks for the page after it (null: no more). */
export const activityPageSchema = v.object({
  items: v.array(activityItemSchema),
  next: v.nullable(v.string()),
});
export type ActivityPage = v.InferOutput<typeof activityPageSchema>;
