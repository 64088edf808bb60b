#!/usr/bin/env node
// `npm start`: builds what is served (the widget bundles and the server; the page joins with its
// issue) and runs the server in this process, so signals reach it directly.
import { pathToFileURL } from 'node:url';
import { buildAll } from './build.mjs';

const { serverFile } = await buildAll();
await import(pathToFileURL(serverFile).href);
