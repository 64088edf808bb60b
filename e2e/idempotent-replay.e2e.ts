import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDroppingProxy } from '../api/test-support/dropping-proxy.ts';
import { launchBrowser } from './browser.ts';
import { startProductServer, waitForWidget } from './support.ts';

// A calculation whose answer the network lost after the server saved it (docs/API.md#idempotent-writes): the
// advisor, signed in, sees no answer, computes on the device and keeps the calculation with the assessment's
// Idempotency-Key; the replay sends the same key, and the server answers its first answer instead of saving
// a second entry. A proxy in front of the server lets every request through but breaks the connection of
// each signed-in POST /api/tools/run once the server has answered it, while `dropping` is on.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let proxy: Awaited<ReturnType<typeof startDroppingProxy>>;
let dropping = true;
beforeAll(async () => {
  product = await startProductServer();
  proxy = await startDroppingProxy(
    product.url,
    (head) => dropping && head.startsWith('POST /api/tools/run') && /\r\nauthorization:/i.test(head),
  );
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await product?.close();
});

async function history(token: string) {
  const answer = await fetch(`${product.url}/api/history`, { headers: { Authorization: `Bearer ${token}` } });
  return (await answer.json()) as { total: number; items: { id: string; toolType: string }[] };
}

describe('the offline replay of a calculation whose answer was lost', () => {
  it('leaves exactly one history entry', async () => {
    const signUp = await fetch(`${product.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        email: 'replay@hospital.example',
        password: 'correct horse battery',
        name: 'Replay Test',
        agreeTerms: true,
      }),
    });
    expect(signUp.status).toBe(201);
    const { token, user } = (await signUp.json()) as { token: string; user: { id: string } };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((stored) => localStorage.setItem('authToken', stored), token);
    const page = await context.newPage();
    await page.goto(`${proxy.url}/`);
    await waitForWidget(page, 'sgx-bradycardia-advisor');
    const widget = page.locator('sgx-bradycardia-advisor');
    await widget.getByLabel(/^Weight/).fill('70');
    await widget.getByLabel(/^Age/).fill('80');
    await widget.getByLabel(/^Baseline heart rate/).fill('55');
    await widget.getByLabel(/^Creatinine clearance/).fill('60');
    await widget.getByRole('checkbox', { name: 'Beta-blocker' }).check();
    await widget.getByRole('button', { name: 'Assess Risk' }).click();

    // The server saved it; the page heard nothing and kept it on the device, with its key.
    expect(await widget.getByTestId('advisor-offline').innerText({ timeout: 15_000 })).toContain(
      'Kept on this device: it will be saved to your history once the server can be reached again.',
    );
    expect(proxy.dropped()).toBeGreaterThanOrEqual(1);
    const saved = await history(token);
    expect(saved.total).toBe(1);
    const kept = await page.evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? '[]') as { idempotencyKey?: string }[],
      `sgx-offline-runs:${user.id}`,
    );
    expect(kept).toHaveLength(1);
    expect(kept[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    // The network answers again: the replay sends the same key and gets the first answer back.
    dropping = false;
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect
      .poll(() => page.evaluate((key) => localStorage.getItem(key), `sgx-offline-runs:${user.id}`), {
        timeout: 15_000,
      })
      .toBeNull();
    const after = await history(token);
    expect(after.total).toBe(1);
    expect(after.items.map((item) => item.id)).toEqual(saved.items.map((item) => item.id));
    await context.close();
  });
});
