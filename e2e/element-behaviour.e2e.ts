import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { openPage, startProductServer, waitForWidget } from './support.ts';

// Browser tests 4, 5, 6 and 7 of docs/engineering-notes.md#browser-tests-worth-having, and the toast hotkey.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let site: Awaited<ReturnType<typeof serveFiles>>;
beforeAll(async () => {
  product = await startProductServer();
  site = await serveFiles({
    '/': {
      body: `<!doctype html><meta charset="utf-8"><title>behaviour</title>
<div id="left"><sgx-dose-calculator id="calc"></sgx-dose-calculator></div><div id="right"></div>
<script>
  window.__events = [];
  document.addEventListener('sgx-dose-calculated', (e) => window.__events.push({
    type: e.type, kind: e.detail.outcome.kind, total: e.detail.outcome.totalDoseMg,
    composed: e.composed, bubbles: e.bubbles, target: e.target.id,
  }));
</script>
<script type="module" src="${product.url}/widgets/sgx-dose-calculator.js"></script>`,
      type: 'text/html; charset=utf-8',
    },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await product?.close();
});

const buttonStyle = (page: Page, selector: string) =>
  page
    .locator(selector)
    .getByRole('button', { name: 'Calculate Dose' })
    .evaluate((button) => {
      const style = getComputedStyle(button);
      return {
        background: style.backgroundColor,
        color: style.color,
        radius: style.borderTopLeftRadius,
        height: style.minHeight,
        font: style.fontFamily,
      };
    });

describe('a custom element on a page', () => {
  it('theme: --sgx-color-primary on the element changes the button colour', async () => {
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    expect((await buttonStyle(page, '#calc')).background).toBe('rgb(15, 118, 110)');
    await page.evaluate(() => document.getElementById('calc')!.style.setProperty('--sgx-color-primary', '#7c3aed'));
    expect((await buttonStyle(page, '#calc')).background).toBe('rgb(124, 58, 237)');
    await page.evaluate(() => document.getElementById('calc')!.style.setProperty('--sgx-radius', '0px'));
    expect((await buttonStyle(page, '#calc')).radius).toBe('0px');
    expect(errors).toEqual([]);
    await close();
  });

  it('moving the element after typing keeps the value and the styles; removing it logs no error', async () => {
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    const before = await buttonStyle(page, '#calc');
    await page
      .locator('#calc')
      .getByLabel(/^Body weight/)
      .fill('72.5');
    await page.evaluate(() => document.getElementById('right')!.appendChild(document.getElementById('calc')!));
    await page.waitForTimeout(50);
    expect(
      await page
        .locator('#right #calc')
        .getByLabel(/^Body weight/)
        .inputValue(),
    ).toBe('72.5');
    expect(await buttonStyle(page, '#calc')).toEqual(before);
    await page.evaluate(() => document.getElementById('calc')!.remove());
    await page.waitForTimeout(50);
    expect(errors).toEqual([]);
    await close();
  });

  it('an element built off-DOM and appended later is styled like a declared one', async () => {
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    const declared = await buttonStyle(page, '#calc');
    await page.evaluate(() => {
      const element = document.createElement('sgx-dose-calculator');
      element.id = 'late';
      element.setAttribute('weight', '64');
      setTimeout(() => document.getElementById('right')!.appendChild(element), 30);
    });
    await waitForWidget(page, '#late');
    expect(await buttonStyle(page, '#late')).toEqual(declared);
    expect(
      await page
        .locator('#late')
        .getByLabel(/^Body weight/)
        .inputValue(),
    ).toBe('64');
    expect(errors).toEqual([]);
    await close();
  });

  it('a property set before the element was defined is applied on upgrade', async () => {
    const early = await serveFiles({
      '/': {
        body: `<!doctype html><title>early</title><sgx-dose-calculator id="e"></sgx-dose-calculator>
<script>document.getElementById('e').weight = '81';</script>
<script type="module" src="${product.url}/widgets/sgx-dose-calculator.js"></script>`,
        type: 'text/html',
      },
    });
    const { page, errors, close } = await openPage(browser, early.url);
    await waitForWidget(page, '#e');
    expect(
      await page
        .locator('#e')
        .getByLabel(/^Body weight/)
        .inputValue(),
    ).toBe('81');
    expect(errors).toEqual([]);
    await close();
    await early.close();
  });

  it('events: document listeners get the typed detail once per action, and none for invalid input', async () => {
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    const widget = page.locator('#calc');
    await widget.getByLabel(/^Body weight/).fill('70');
    await widget.getByLabel(/^TOF count/).selectOption('2');
    await widget.getByRole('button', { name: 'Calculate Dose' }).click();
    await widget.getByLabel(/^Body weight/).fill('0');
    await widget.getByRole('button', { name: 'Calculate Dose' }).click();
    await widget.getByLabel(/^Body weight/).fill('80');
    await widget.getByRole('button', { name: 'Calculate Dose' }).click();
    expect(await page.evaluate(() => (window as unknown as { __events: unknown[] }).__events)).toEqual([
      { type: 'sgx-dose-calculated', kind: 'dose', total: 140, composed: true, bubbles: true, target: 'calc' },
      { type: 'sgx-dose-calculated', kind: 'dose', total: 160, composed: true, bubbles: true, target: 'calc' },
    ]);
    expect(errors).toEqual([]);
    await close();
  });

  it('F8 focuses the notifications region while a toast shows', async () => {
    const { page, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    const widget = page.locator('#calc');
    await widget.getByRole('button', { name: 'Calculate Dose' }).click(); // no weight: the Invalid Input toast
    const toast = widget.getByRole('region', { name: 'Notifications' });
    await expect.poll(() => toast.innerText()).toContain('Please enter a valid body weight');
    await page.keyboard.press('F8');
    const focused = await page.evaluate(() =>
      document.getElementById('calc')!.shadowRoot!.activeElement?.getAttribute('aria-label'),
    );
    expect(focused).toBe('Notifications');
    expect(await toast.evaluate((region) => getComputedStyle(region).maxWidth)).toBe('420px');
    await close();
  });

  it('at 360 px the form and the result fit the width', async () => {
    const { page, close } = await openPage(browser, site.url, { viewport: { width: 360, height: 800 } });
    await waitForWidget(page, '#calc');
    const widget = page.locator('#calc');
    await widget.getByLabel(/^Body weight/).fill('70');
    await widget.getByLabel(/^TOF count/).selectOption('2');
    await widget.getByRole('button', { name: 'Calculate Dose' }).click();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await close();
  });
});
