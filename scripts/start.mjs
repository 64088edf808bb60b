#!/usr/bin/env node
// `npm start`: builds what is served (the page, the widget bundles, the PDFs and the server) and
// runs the server in this process, so signals reach it directly.
import { pathToFileURL } from 'node:url';
import { buildAll } from './build.mjs';

const { serverFile } = await buildAll();
await import(pathToFileURL(serverFile).href);
