import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { artifactsDir, startProductServer, waitForWidget } from './support.ts';

// Each element at 1280 px and 360 px, in a state with content, saved to e2e/.artifacts for a person
// to look at; and at both widths nothing is wider than the screen.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
beforeAll(async () => {
  product = await startProductServer();
  browser = await launchBrowser();
  await mkdir(artifactsDir, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const SCENES: Record<string, { tag: string; act: (page: Page) => Promise<void> }> = {
  'dose-calculator': {
    tag: 'sgx-dose-calculator',
    act: async (page) => {
      const widget = page.locator('sgx-dose-calculator');
      await widget.getByLabel(/^Body weight/).fill('126');
      await widget.getByLabel(/^Creatinine clearance/).fill('55');
      await widget.getByRole('checkbox', { name: /rapid-sequence/ }).check();
      await widget.getByRole('button', { name: 'Calculate Dose' }).click();
      await widget.locator('[part="result"]').waitFor();
    },
  },
  'bradycardia-advisor': {
    tag: 'sgx-bradycardia-advisor',
    act: async (page) => {
      const widget = page.locator('sgx-bradycardia-advisor');
      await widget.getByLabel(/^Weight/).fill('70');
      await widget.getByLabel(/^Age/).fill('78');
      await widget.getByLabel(/^Baseline heart rate/).fill('48');
      await widget.getByLabel(/^Creatinine clearance/).fill('40');
      await widget.getByRole('checkbox', { name: 'Beta-blocker' }).check();
      await widget.getByLabel(/^Cardiac history/).selectOption('av_block');
      await widget.getByRole('button', { name: 'Assess Risk' }).click();
      await widget.getByTestId('risk-band').waitFor();
    },
  },
  'roi-calculator': {
    tag: 'sgx-roi-calculator',
    act: async (page) => {
      await page.waitForTimeout(1700); // the count-up runs 60 × 25 ms
    },
  },
  'access-portal': {
    tag: 'sgx-access-portal',
    act: async (page) => {
      const portal = page.locator('sgx-access-portal');
      await portal.getByRole('button', { name: 'Sign In / Quick Use' }).click();
      await portal.getByRole('dialog', { name: 'Choose Access Mode' }).getByRole('button', { name: 'Sign Up' }).click();
      await portal.getByRole('dialog', { name: 'HCP Access Portal' }).waitFor();
    },
  },
};

describe('screenshots', () => {
  for (const [name, scene] of Object.entries(SCENES)) {
    for (const width of [1280, 360]) {
      it(`${name} at ${width} px`, async () => {
        const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
        await context.route(`${product.url}/shot`, (route) =>
          route.fulfill({
            status: 200,
            contentType: 'text/html',
            body:
              `<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1">` +
              `<title>${name}</title><body style="margin:0;padding:16px;background:#f8fafc">` +
              `<${scene.tag}></${scene.tag}><script type="module" src="/widgets/sgx-widgets.js"></script></body>`,
          }),
        );
        const page = await context.newPage();
        await page.goto(`${product.url}/shot`);
        await waitForWidget(page, scene.tag);
        await scene.act(page);
        await page.screenshot({ path: path.join(artifactsDir, `${name}-${width}.png`), fullPage: true });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await context.close();
      });
    }
  }
});
