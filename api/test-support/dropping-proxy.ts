import net, { type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP proxy in front of `target` (`http://127.0.0.1:port`) that loses answers the way a flaky network
 * does: for a request whose head `shouldDrop` picks, it forwards the request, waits until the server has
 * answered (its response bytes arrived and it went quiet), then closes the client's connection without
 * passing any of them on. The server did the work; the client saw a broken connection. Every other
 * request passes through untouched. One connection to the target per client connection.
 */
export async function startDroppingProxy(
  target: string,
  shouldDrop: (requestHead: string) => boolean,
): Promise<{ url: string; dropped: () => number; close: () => Promise<void> }> {
  const { hostname, port } = new URL(target);
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    const upstream = net.connect(Number(port), hostname);
    sockets.add(upstream);
    let head = '';
    let dropping = false;
    let quietTimer: NodeJS.Timeout | undefined;
    client.on('data', (chunk: Buffer) => {
      if (!dropping && head.length < 8192) {
        head += chunk.toString('latin1');
        // One request at a time per connection: a new request line starts a new head.
        if (/^(GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD) /.test(chunk.toString('latin1'))) {
          head = chunk.toString('latin1');
        }
        if (head.includes('\r\n\r\n') && shouldDrop(head)) dropping = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!dropping) {
        client.write(chunk);
        return;
      }
      // The answer is arriving: let all of it come, then break the client's connection.
      clearTimeout(quietTimer);
      quietTimer = setTimeout(() => {
        dropped += 1;
        client.destroy();
        upstream.destroy();
      }, 50);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', () => {
      sockets.delete(client);
      if (!dropping) upstream.end();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      if (!dropping) client.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropped: () => dropped,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
