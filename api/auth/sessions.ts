import { randomUUID, type KeyObject } from 'node:crypto';
import type { AuthResponse } from '../../contracts/auth.ts';
import type { SessionMethod, SessionRecord, UserRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppContext } from '../state.ts';
import { publicUser } from './public-user.ts';
import { describeDevice } from './session-activity.ts';
import { signSessionToken, TOKEN_TTL_SECONDS } from './tokens.ts';

export interface SessionDeps {
  store: Store;
  key: KeyObject;
  now: () => Date;
}

/**
 * Opens a session for the account and answers what the browser keeps: the same `{ token, user }` however
 * the clinician signed in (a password, with or without a second factor, or single sign-on), so every
 * element works unchanged; and the session's id, for the caller's audit line.
 */
export async function openSession(
  deps: SessionDeps,
  ctx: AppContext,
  user: UserRecord,
  method: SessionMethod,
  oidc: SessionRecord['oidc'] = null,
): Promise<{ body: AuthResponse; sessionId: string }> {
  const issuedAt = deps.now();
  const session: SessionRecord = {
    id: randomUUID(),
    userId: user.id,
    createdAt: issuedAt.toISOString(),
    expiresAt: new Date(issuedAt.getTime() + TOKEN_TTL_SECONDS * 1000).toISOString(),
    revokedAt: null,
    lastUsedAt: issuedAt.toISOString(),
    device: describeDevice(ctx.get('User-Agent')),
    method,
    oidc,
  };
  await deps.store.createSession(session);
  return {
    body: {
      token: signSessionToken(deps.key, { userId: user.id, sessionId: session.id }, issuedAt),
      user: publicUser(user),
    },
    sessionId: session.id,
  };
}
