import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticFiles {
  [urlPath: string]: { body: string | Uint8Array; type: string };
}

/** Serves a fixed set of files on 127.0.0.1 with a free port; anything else is a 404. */
export async function serveFiles(files: StaticFiles): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://localhost').pathname];
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
