import { auditContext } from '../audit/request-context.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { AppContext } from '../state.ts';

/**
 * The audit line of a sign-in through the hospital's provider (`user.signin.oidc`) or an EHR's launch
 * (`user.signin.smart`): who, how it ended, and the session it opened, if one.
 */
export function auditSignIn(
  audit: AuditLog,
  ctx: AppContext,
  action: 'user.signin.oidc' | 'user.signin.smart',
  actor: string,
  outcome: 'success' | 'failure' | 'denied',
  sessionId?: string,
): Promise<void> {
  const session = sessionId ? { recordType: 'session' as const, recordId: sessionId } : {};
  return audit.record({ actor, action, ...session, outcome }, auditContext(ctx));
}
