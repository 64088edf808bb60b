import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AppContext } from '../../state.ts';
import type { PasskeyRecord, UserRecord } from '../../storage/records.ts';

/**
 * Passkeys (WebAuthn) as a second factor, with @simplewebauthn/server: user verification required (a PIN or
 * a fingerprint on the device, so the passkey is itself two factors), no attestation asked for. A signature
 * counter of 0 is accepted (synced passkeys keep none); a counter that went backwards is refused (a cloned
 * authenticator).
 */
export const RP_NAME = 'HCP Portal';

export interface WebAuthnSettings {
  /** WEBAUTHN_RP_ID */
  rpId?: string;
  /** PUBLIC_URL */
  publicUrl?: string;
  /** ALLOWED_ORIGINS: pages there may use passkeys too (their host must end with the RP ID). */
  allowedOrigins: readonly string[];
}

/** The domain passkeys belong to and the page origins a ceremony may come from, for this request. */
export function relyingParty(ctx: AppContext, settings: WebAuthnSettings): { rpId: string; origins: string[] } {
  const publicUrl = settings.publicUrl ? new URL(settings.publicUrl) : undefined;
  const rpId = settings.rpId ?? publicUrl?.hostname ?? ctx.hostname;
  // This server's own origin as the request reached it (Koa 3's ctx.origin is the Origin header instead).
  const own = `${ctx.protocol}://${ctx.host}`;
  const origins = new Set([...(publicUrl ? [publicUrl.origin] : []), own, ...settings.allowedOrigins]);
  return { rpId, origins: [...origins] };
}

export function registrationOptions(
  user: UserRecord,
  existing: readonly PasskeyRecord[],
  rpId: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rpId,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

/** The new passkey, or undefined when the response does not verify. */
export async function verifyRegistration(
  response: unknown,
  expected: { challenge: string; rpId: string; origins: string[] },
): Promise<Pick<PasskeyRecord, 'id' | 'publicKey' | 'counter' | 'transports'> | undefined> {
  try {
    const result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.origins,
      expectedRPID: expected.rpId,
      requireUserVerification: true,
    });
    if (!result.verified) return undefined;
    const credential = result.registrationInfo.credential;
    return {
      id: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
    };
  } catch {
    return undefined;
  }
}

export function authenticationOptions(
  passkeys: readonly PasskeyRecord[],
  rpId: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rpId,
    allowCredentials: passkeys.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    userVerification: 'required',
  });
}

/** The passkey used and its new counter, or undefined when the response does not verify. */
export async function verifyAuthentication(
  response: unknown,
  passkeys: readonly PasskeyRecord[],
  expected: { challenge: string; rpId: string; origins: string[] },
): Promise<{ passkey: PasskeyRecord; counter: number } | undefined> {
  const id = (response as { id?: unknown } | null)?.id;
  const passkey = passkeys.find((candidate) => candidate.id === id);
  if (!passkey) return undefined;
  try {
    const result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.origins,
      expectedRPID: expected.rpId,
      credential: {
        id: passkey.id,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    });
    return result.verified ? { passkey, counter: result.authenticationInfo.newCounter } : undefined;
  } catch {
    return undefined;
  }
}
