import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { repoRoot } from './support.ts';

// Issue 7: the static Storybook (as `npm run build-storybook` makes it, offline) shows every story
// in real Chromium without a page error, its play function included.
let outDir: string;
let server: Server;
let url: string;
let browser: Browser;
let storyIds: string[] = [];

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'sgx-storybook-'));
  const built = spawnSync(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/storybook/dist/bin/dispatcher.js'),
      'build',
      '-c',
      'stories/.storybook',
      '-o',
      outDir,
      '--disable-telemetry',
      '--quiet',
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'production', STORYBOOK_DISABLE_TELEMETRY: '1' },
      encoding: 'utf8',
    },
  );
  if (built.status !== 0) throw new Error(`storybook build failed:\n${built.stdout}\n${built.stderr}`);
  const index = JSON.parse(await readFile(path.join(outDir, 'index.json'), 'utf8')) as {
    entries: Record<string, { id: string; type: string }>;
  };
  storyIds = Object.values(index.entries)
    .filter((entry) => entry.type === 'story')
    .map((entry) => entry.id);
  server = createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = path.join(outDir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(outDir)) return void response.writeHead(403).end();
    try {
      const body = await readFile(file);
      const type = file.endsWith('.html')
        ? 'text/html'
        : file.endsWith('.js') || file.endsWith('.mjs')
          ? 'text/javascript'
          : file.endsWith('.css')
            ? 'text/css'
            : file.endsWith('.json')
              ? 'application/json'
              : 'application/octet-stream';
      response.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await rm(outDir, { recursive: true, force: true });
});

describe('the built Storybook', () => {
  it('has a story for each element and the theme', () => {
    for (const prefix of [
      'elements-dose-calculator--',
      'elements-bradycardia-advisor--',
      'elements-roi-calculator--',
      'elements-access-portal--',
      'design-theme-tokens--',
    ]) {
      expect([prefix, storyIds.some((id) => id.startsWith(prefix))]).toEqual([prefix, true]);
    }
  });

  it('shows every story, play function included, without a page error', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const failures: string[] = [];
    for (const id of storyIds) {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // A failing play function is reported on the console (an expect() error).
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
          errors.push(message.text().slice(0, 300));
      });
      await page.goto(`${url}/iframe.html?id=${id}&viewMode=story`);
      // The preview's current render reaches "finished" once the story rendered and its play function ran.
      const phase = await page
        .waitForFunction(
          () => {
            const render = (window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: { phase?: string } } })
              .__STORYBOOK_PREVIEW__?.currentRender;
            return render?.phase && ['finished', 'errored', 'aborted'].includes(render.phase) ? render.phase : false;
          },
          undefined,
          { timeout: 30_000 },
        )
        .then((handle) => handle.jsonValue())
        .catch(() => 'timed out');
      if (phase !== 'finished') errors.push(`render phase: ${String(phase)}`);
      if (await page.evaluate(() => document.body.classList.contains('sb-show-errordisplay')))
        errors.push(
          await page
            .locator('#error-message')
            .innerText()
            .catch(() => 'error display'),
        );
      if (errors.length) failures.push(`${id}: ${errors.join(' | ')}`);
      await page.close();
    }
    expect(failures).toEqual([]);
    await context.close();
  }, 300_000);
});
