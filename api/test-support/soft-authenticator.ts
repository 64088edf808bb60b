import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A passkey authenticator in software, for the API tests (the e2e tests use Chromium's virtual
 * authenticator): an ES256 key per credential, "none" attestation, user presence and verification as set,
 * and a signature counter that stays at 0 (as synced passkeys report) unless told to count.
 */
export class SoftAuthenticator {
  #credentials = new Map<string, { privateKey: KeyObject; counter: number }>();
  constructor(
    readonly origin: string,
    readonly options: { userVerified?: boolean; counting?: boolean } = {},
  ) {}

  #authData(rpId: string, counter: number, attested?: Buffer) {
    const flags = 0x01 | (this.options.userVerified === false ? 0 : 0x04) | (attested ? 0x40 : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
  }

  #clientData(type: string, challenge: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): a RegistrationResponseJSON for the server's creation options. */
  register(options: { challenge: string; rp: { id?: string } }) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = randomBytes(32);
    this.#credentials.set(id.toString('base64url'), { privateKey, counter: 0 });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, id, Buffer.from(isoCBOR.encode(cose))]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.#authData(rpId, 0, attested)],
      ]) as never,
    );
    return {
      id: id.toString('base64url'),
      rawId: id.toString('base64url'),
      type: 'public-key',
      response: {
        clientDataJSON: this.#clientData('webauthn.create', options.challenge).toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): an AuthenticationResponseJSON with one of this authenticator's credentials. */
  authenticate(options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] }) {
    const id = options.allowCredentials?.map((entry) => entry.id).find((candidate) => this.#credentials.has(candidate));
    if (!id) throw new Error('no credential of this authenticator is allowed');
    const credential = this.#credentials.get(id)!;
    if (this.options.counting) credential.counter += 1;
    const authData = this.#authData(options.rpId ?? new URL(this.origin).hostname, credential.counter);
    const clientData = this.#clientData('webauthn.get', options.challenge);
    const signature = createSign('SHA256')
      .update(Buffer.concat([authData, sha256(clientData)]))
      .sign(credential.privateKey);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

function sha256(data: string | Buffer) {
  return createHash('sha256').update(data).digest();
}
