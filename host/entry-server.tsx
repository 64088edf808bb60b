// The page rendered at build time (scripts/build-host.mjs): the HTML every visitor gets before any
// script runs. The custom elements stay empty sized boxes here; the browser defines them after
// React has hydrated this markup (host/main.tsx).
import { PassThrough } from 'node:stream';
import { prerenderToNodeStream } from 'react-dom/static';
import { App } from './App.tsx';

/** The page's markup, for inside <div id="root">. */
export async function renderPage(): Promise<string> {
  const { prelude } = await prerenderToNodeStream(<App />);
  const chunks: Buffer[] = [];
  for await (const chunk of prelude.pipe(new PassThrough())) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
