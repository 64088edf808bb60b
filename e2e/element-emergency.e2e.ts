import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLINICAL_TEXTS_EN, emergencyCard, type EmergencyDose } from '../clinical/index.ts';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { openPage, startProductServer, waitForWidget } from './support.ts';

// Issue 30, items 5 and 6: the emergency card opened from an element starts with that element's weight and
// age group, and keeps the focus (also inside an iframe, where Tab would otherwise reach the host page).
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
beforeAll(async () => {
  product = await startProductServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const CARD = '[data-sgx-emergency-card]';
const card = (page: Page | Frame) => page.locator(CARD).getByTestId('emergency-card');
const shownDose = (dose: EmergencyDose) =>
  `${dose.upTo === undefined ? dose.amount : `${dose.amount}-${dose.upTo}`} ${dose.unit}`;
/** The doses the card shows for this patient, computed by clinical/ (the card's own code). */
function expectedDoses(ageGroup: 'adult' | 'child', weightKg?: number): string[] {
  const outcome = emergencyCard({ ageGroup, weightKg }, CLINICAL_TEXTS_EN);
  if (outcome.kind === 'invalid_input') throw new Error('not a card');
  return outcome.sections.flatMap((section) =>
    section.steps.flatMap((step) => (step.dose ? [shownDose(step.dose)] : [])),
  );
}
async function cardState(page: Page | Frame) {
  const shown = card(page);
  await expect.poll(() => shown.isVisible()).toBe(true);
  return {
    ageGroup: await shown.locator('input[type="radio"]:checked').inputValue(),
    weight: await shown.getByLabel(/^Weight/).inputValue(),
    doses: await shown.getByTestId('emergency-dose').allInnerTexts(),
  };
}

const pageWith = (body: string) =>
  serveFiles({
    '/': {
      body:
        `<!doctype html><html lang="en"><meta charset="utf-8"><title>emergency</title>${body}` +
        `<script type="module" src="${product.url}/widgets/sgx-widgets.js"></script>`,
      type: 'text/html; charset=utf-8',
    },
  });

describe('the emergency card opened from an element', () => {
  it('takes the dose calculator’s presets: 20 kg paediatric gives the child’s doses for 20 kg', async () => {
    const site = await pageWith(
      `<sgx-dose-calculator emergency weight="20" age-group="pediatric"></sgx-dose-calculator>`,
    );
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, 'sgx-dose-calculator');
    await page.locator('sgx-dose-calculator').getByRole('button', { name: 'Emergency' }).click();
    const state = await cardState(page);
    expect(state).toEqual({ ageGroup: 'child', weight: '20', doses: expectedDoses('child', 20) });
    expect(state.doses).not.toEqual(expectedDoses('adult', 20));
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('takes what was typed since: another weight and age group', async () => {
    const site = await pageWith(`<sgx-dose-calculator emergency></sgx-dose-calculator>`);
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, 'sgx-dose-calculator');
    const widget = page.locator('sgx-dose-calculator');
    await widget.getByLabel(/^Age group/).selectOption('infant');
    await widget.getByLabel(/^Body weight/).fill('8.5');
    await widget.getByRole('button', { name: 'Emergency' }).click();
    expect(await cardState(page)).toEqual({ ageGroup: 'child', weight: '8.5', doses: expectedDoses('child', 8.5) });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator(CARD).count()).toBe(0);

    await widget.getByLabel(/^Age group/).selectOption('adult');
    await widget.getByLabel(/^Body weight/).fill('82');
    await widget.getByRole('button', { name: 'Emergency' }).click();
    expect(await cardState(page)).toEqual({ ageGroup: 'adult', weight: '82', doses: expectedDoses('adult', 82) });
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('takes the advisor’s typed weight, and a child by the age typed', async () => {
    const site = await pageWith(`<sgx-bradycardia-advisor emergency></sgx-bradycardia-advisor>`);
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, 'sgx-bradycardia-advisor');
    const advisor = page.locator('sgx-bradycardia-advisor');
    await advisor.getByLabel(/^Weight/).fill('31');
    await advisor.getByLabel(/^Age/).fill('9');
    await advisor.getByRole('button', { name: 'Emergency' }).click();
    expect(await cardState(page)).toEqual({ ageGroup: 'child', weight: '31', doses: expectedDoses('child', 31) });
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });
});

describe('the emergency card keeps the focus', () => {
  it('inside an iframe: Tab and Shift+Tab stay in the card, and Escape still closes it', async () => {
    const frame = await pageWith(
      `<sgx-dose-calculator emergency weight="20" age-group="pediatric"></sgx-dose-calculator>`,
    );
    const host = await serveFiles({
      '/': {
        body:
          `<!doctype html><html lang="en"><meta charset="utf-8"><title>host</title>` +
          `<button id="before">before</button>` +
          `<iframe id="tool" title="Dose calculator" src="${frame.url}/" style="width:100%;height:800px"></iframe>` +
          `<button id="after">after</button>`,
        type: 'text/html; charset=utf-8',
      },
    });
    const { page, errors, close } = await openPage(browser, host.url, { viewport: { width: 1000, height: 900 } });
    const tool = page.frame({ url: `${frame.url}/` })!;
    await waitForWidget(tool as unknown as Page, 'sgx-dose-calculator');
    await tool.locator('sgx-dose-calculator').getByRole('button', { name: 'Emergency' }).click();
    await cardState(tool);
    // (the frame is on another origin: the host page sees only that the iframe has the focus)
    const focus = async () => {
      const onHost = await page.evaluate(() => document.activeElement?.id || document.activeElement?.localName);
      if (onHost !== 'tool') return `host: ${onHost}`;
      return tool.evaluate(() => {
        const active = document.querySelector('[data-sgx-emergency-card]')?.shadowRoot?.activeElement;
        return active?.closest('dialog[open]') ? 'card' : `frame: ${document.activeElement?.localName}`;
      });
    };
    for (let press = 0; press < 10; press += 1) {
      await page.keyboard.press('Tab');
      expect([press, await focus()]).toEqual([press, 'card']);
    }
    for (let press = 0; press < 10; press += 1) {
      await page.keyboard.press('Shift+Tab');
      expect([press, await focus()]).toEqual([press, 'card']);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => tool.locator(CARD).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
    await host.close();
    await frame.close();
  });

  it('Shift+Tab from the title focused on opening goes to the last control, not out of the card', async () => {
    const site = await pageWith(
      `<button id="before">before</button><sgx-dose-calculator emergency></sgx-dose-calculator>`,
    );
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, 'sgx-dose-calculator');
    await page.locator('sgx-dose-calculator').getByRole('button', { name: 'Emergency' }).click();
    await cardState(page);
    await page.keyboard.press('Shift+Tab');
    const focused = await page.evaluate(() => {
      const active = document.querySelector('[data-sgx-emergency-card]')?.shadowRoot?.activeElement;
      return active ? `${active.localName}${active.closest('dialog[open]') ? ' in card' : ''}` : 'outside';
    });
    expect(focused).toBe('input in card');
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });
});
