/**
 * A new Idempotency-Key (docs/API.md#idempotent-writes): one per user action that creates a record, sent with
 * every attempt of that action (a retry, the offline replay), so the server records it once however many
 * answers the network loses. A random UUID (crypto.randomUUID, or the same from getRandomValues where a page
 * is not a secure context and randomUUID is missing).
 */
export function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Keys for a form saved again after a failure (the patient form): the same body keeps its key, so a second
 * "Save" after an answer the network lost is the same action; a changed body is a new action with a new key.
 */
export function keyPerBody(): (body: unknown) => string {
  let last: { body: string; key: string } | undefined;
  return (body) => {
    const text = JSON.stringify(body);
    if (last?.body !== text) last = { body: text, key: newIdempotencyKey() };
    return last.key;
  };
}
