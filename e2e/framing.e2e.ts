import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { startProductServer } from './support.ts';

// The product page in another site's <iframe>: refused by default (frame-ancestors 'self', X-Frame-Options),
// shown to the origins FRAME_ANCESTORS names (an intranet portal that frames it) and to them only.
let browser: Browser;
let intranet: Awaited<ReturnType<typeof serveFiles>>;
let stranger: Awaited<ReturnType<typeof serveFiles>>;
let closed: Awaited<ReturnType<typeof startProductServer>>;
let framed: Awaited<ReturnType<typeof startProductServer>>;
/** The product page's first heading, as a tab of its own shows it. */
let productHeading: string | null;

const portal = () =>
  serveFiles({ '/': { body: '<!doctype html><title>portal</title><h1>Portal</h1>', type: 'text/html' } });

beforeAll(async () => {
  browser = await launchBrowser();
  intranet = await portal();
  stranger = await portal();
  closed = await startProductServer();
  framed = await startProductServer({ FRAME_ANCESTORS: `${intranet.url}, https://*.hospital.example` });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${closed.url}/`);
  productHeading = await page.locator('h1').first().textContent();
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([intranet?.close(), stranger?.close(), closed?.close(), framed?.close()]);
});

/** Opens `host`, frames `productUrl` in it, and says what the frame shows. */
async function frame(host: string, productUrl: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (message) => messages.push(message.text()));
  await page.goto(host);
  await page.evaluate(
    (src) =>
      new Promise<void>((resolve) => {
        const iframe = document.createElement('iframe');
        iframe.addEventListener('load', () => resolve(), { once: true });
        iframe.src = src;
        iframe.style.cssText = 'width: 800px; height: 600px';
        document.body.append(iframe);
      }),
    `${productUrl}/`,
  );
  const content = await (await page.$('iframe'))!.contentFrame();
  const shown = {
    url: content!.url(),
    heading: await content!
      .locator('h1')
      .first()
      .textContent({ timeout: 2000 })
      .catch(() => null),
  };
  await context.close();
  return { ...shown, messages };
}

describe('the product page in a frame of another origin', () => {
  it("is refused by default (frame-ancestors 'self')", async () => {
    const shown = await frame(intranet.url, closed.url);
    expect(productHeading?.trim()).toBeTruthy();
    expect(shown.url).not.toContain(closed.url);
    expect(shown.heading).not.toBe(productHeading);
    expect(shown.messages.join('\n')).toContain(`directive: "frame-ancestors 'self'"`);
  });

  it('is shown to an origin FRAME_ANCESTORS names', async () => {
    const shown = await frame(intranet.url, framed.url);
    expect(shown.url).toBe(`${framed.url}/`);
    expect(shown.heading).toBe(productHeading);
    expect(shown.messages.filter((message) => message.includes('frame-ancestors'))).toEqual([]);
  });

  it('and still refused to an origin it does not name', async () => {
    const shown = await frame(stranger.url, framed.url);
    expect(shown.url).not.toContain(framed.url);
    expect(shown.heading).not.toBe(productHeading);
    expect(shown.messages.join('\n')).toContain(
      `directive: "frame-ancestors 'self' ${intranet.url} https://*.hospital.example"`,
    );
  });
});
