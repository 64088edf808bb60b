#!/usr/bin/env node
// The image's HEALTHCHECK (Containerfile): GET /healthz of the server in this container, on PORT
// (default 8080). Exit 0 when it answers 200 within 4 s, 1 otherwise. Node only: slim images have no
// curl or wget.
import http from 'node:http';

const port = Number(process.env.PORT || 8080);
const request = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 4_000 }, (response) => {
  response.resume();
  process.exitCode = response.statusCode === 200 ? 0 : 1;
  if (response.statusCode !== 200) console.error(`/healthz answered ${response.statusCode}`);
});
request.on('timeout', () => request.destroy(new Error('no answer within 4 s')));
request.on('error', (error) => {
  console.error(`/healthz: ${error.message}`);
  process.exitCode = 1;
});
