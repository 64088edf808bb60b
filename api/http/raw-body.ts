import type { IncomingMessage } from 'node:http';

/**
 * Reads a request body of at most `limit` bytes into memory. A body declared (Content-Length) or
 * found to be larger answers 'too_large' without keeping it: a declared one is not read at all
 * (Node discards it once the response is sent); one that grows past the limit while streaming stops
 * being kept at once and the rest is read and dropped, so the connection stays usable for the answer.
 * A client that goes away mid-body is a 400 (nobody is left to read it).
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  if (req.readableEnded) return Promise.reject(new Error('The request body was already read'));
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve('too_large');

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      chunks.length = 0;
      req.resume(); // drop the rest as it arrives
      resolve('too_large');
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, received));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(Object.assign(new Error('The upload was interrupted'), { status: 400, expose: true, cause: error }));
    };
    const onClose = () => onError(new Error('The connection closed before the body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
