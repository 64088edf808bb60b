import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesAr } from '../widgets/shared/lang/messages/ar/index.ts';
import { forbiddenAbbreviationsIn, rejectedVariantsIn } from '../scripts/glossary.mjs';
import { launchBrowser } from './browser.ts';
import { openPage, startProductServer, waitForAllWidgets, waitForWidget } from './support.ts';

// Issue 29 in a real browser: the Arabic page and every element speaking Arabic hold none of the glossary's
// rejected variants (docs/glossary.json) and no "µg"; the emergency card caps a child's bradycardia adrenaline at
// 1 mg; "Copy as note" puts an English note with no bidi marks on the clipboard.
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

/**
 * Every text under `selector` (each match), shadow roots included, with the words of alt, title, aria-label and
 * placeholder attributes; hidden text too (a closed FAQ answer is still the page's text).
 */
const textUnder = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    let text = '';
    const attributes: string[] = [];
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
      if (node instanceof Element) {
        if (node.localName === 'script' || node.localName === 'style') return;
        for (const name of ['alt', 'title', 'aria-label', 'placeholder']) {
          const value = node.getAttribute(name);
          if (value) attributes.push(value);
        }
        if (node.shadowRoot) walk(node.shadowRoot);
      }
      for (const child of node.childNodes) walk(child);
    };
    for (const root of document.querySelectorAll(sel)) walk(root);
    return [text, ...attributes].join('\n');
  }, selector);

/** Text nodes (shadow roots included) that carry bidi isolates, no-break spaces or word joiners, and where. */
const textNodesWithInvisibleMarks = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE && /[\u2066-\u2069\u00a0\u2060]/.test(node.textContent ?? '')) {
        const parent = node.parentElement;
        if (!parent?.closest('option, script, style, noscript'))
          found.push(`<${parent?.localName}>: ${(node.textContent ?? '').slice(0, 60)}`);
      }
      if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
      for (const child of node.childNodes) walk(child);
    };
    walk(document.documentElement);
    return found;
  });

/** What the glossary finds wrong in a text: rejected variants and forbidden abbreviations. */
const findings = (text: string) => [...rejectedVariantsIn(text), ...forbiddenAbbreviationsIn(text)];

const ar = messagesAr;
const startingWith = (text: string) => new RegExp(`^${text.replace(/[()]/g, '\\$&')}`);

/** Fills and runs the Arabic dose calculator; the result's text is then on the page. */
async function calculateInArabic(calculator: Locator, values: { weight: string; tof: string; dialysis?: boolean }) {
  await calculator.getByLabel(startingWith(ar.doseCalculator.bodyWeight)).fill(values.weight);
  await calculator.getByLabel(startingWith(ar.doseCalculator.tofCount)).selectOption(values.tof);
  const dialysis = calculator.getByRole('checkbox', { name: ar.doseCalculator.dialysis });
  if (values.dialysis) await dialysis.check();
  else await dialysis.uncheck();
  await calculator.getByRole('button', { name: ar.doseCalculator.calculate }).click();
  await calculator.locator('[part="result"]').waitFor();
}

/** Fills and runs the Arabic advisor with several factors, so that its plan and factor lines are shown. */
async function assessInArabic(advisor: Locator) {
  await advisor.getByLabel(startingWith(ar.advisor.weight)).fill('20');
  await advisor.getByLabel(startingWith(ar.advisor.age)).fill('8');
  await advisor.getByLabel(startingWith(ar.advisor.baselineHr)).fill('55');
  await advisor.getByLabel(startingWith(ar.advisor.creatinine)).fill('60');
  await advisor.getByRole('checkbox', { name: ar.advisor.betaBlocker }).check();
  await advisor.getByRole('checkbox', { name: ar.advisor.highDoseOpioids }).check();
  await advisor.getByRole('checkbox', { name: ar.advisor.vagalStimulus }).check();
  await advisor.getByRole('button', { name: ar.advisor.assess }).click();
  await advisor.getByTestId('risk-band').waitFor();
}

/** Opens the bar's emergency card for a child of `weight` kg. */
async function emergencyCardFor(page: Page, weight: string, child: string) {
  await page.locator('#root header button[data-emergency]').click();
  const card = page.getByTestId('emergency-card');
  await card.waitFor();
  await card.getByRole('radio', { name: child }).check();
  await card.getByLabel(/^(Weight|الوزن)/).fill(weight);
  return card;
}

describe('the wording of issue 29 in the browser', () => {
  it('/ar/ with its tools used (dose, contraindication, plan, emergency card): no rejected variant or µg', async () => {
    const { page, errors, close } = await openPage(browser, `${product.url}/ar/`);
    await waitForAllWidgets(page);
    const calculator = page.locator('sgx-dose-calculator');
    await calculateInArabic(calculator, { weight: '70', tof: '2' });
    const texts = [await textUnder(page, 'html')];
    await calculateInArabic(calculator, { weight: '70', tof: '2', dialysis: true });
    texts.push(await textUnder(page, 'sgx-dose-calculator'));
    await assessInArabic(page.locator('sgx-bradycardia-advisor'));
    texts.push(await textUnder(page, 'sgx-bradycardia-advisor'));
    const card = await emergencyCardFor(page, '20', ar.emergency.ageGroups.child.replace(/[\u2066-\u2069]/g, ''));
    await card.locator('[data-testid="emergency-dose"]').first().waitFor();
    texts.push(await textUnder(page, 'body'));
    const all = texts.join('\n');
    expect(all.match(/[\u0600-\u06ff]/g)?.length).toBeGreaterThan(5000);
    // the words the review replaced are gone, the glossary's terms are there
    expect(findings(all)).toEqual([]);
    // no invisible character in the page's text (a select's options aside, which hold text only): each number
    // with its unit is markup, a <bdi dir="ltr"> kept on one line (review N2, N5)
    expect(await textNodesWithInvisibleMarks(page)).toEqual([]);
    for (const term of ['مانع استعمال', 'أدرينالين (epinephrine)', 'العدّ بعد التنبيه الكزازي (PTC)', 'micrograms']) {
      expect(all, term).toContain(term);
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('every element given lang="ar" on the English page: no rejected variant, no "µg"', async () => {
    const { page, errors, close } = await openPage(browser, `${product.url}/`);
    await waitForAllWidgets(page);
    await page.evaluate(() => {
      for (const tag of ['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator']) {
        document.querySelector(tag)!.setAttribute('lang', 'ar');
      }
    });
    for (const tag of ['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator']) {
      await waitForWidget(page, tag);
    }
    const calculator = page.locator('sgx-dose-calculator');
    await calculator.getByRole('button', { name: ar.doseCalculator.calculate }).waitFor();
    await calculateInArabic(calculator, { weight: '3.5', tof: '0' });
    await assessInArabic(page.locator('sgx-bradycardia-advisor'));
    const text = await textUnder(page, '[lang="ar"]');
    expect(text).toMatch(/[\u0600-\u06ff]/);
    expect(findings(text)).toEqual([]);
    // and the English page itself writes micrograms in full
    expect(forbiddenAbbreviationsIn(await textUnder(page, 'html'))).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('the emergency card for a 120 kg child: adrenaline 1 mg, capped (1.2 mg by weight), from PALS 2020', async () => {
    for (const [address, child, capped] of [
      ['/', 'Child (under 18)', 'Capped at the maximum (1.2 mg by weight)'],
      ['/ar/', 'طفل (دون سن 18)', 'قُصِرت على الحد الأقصى (1.2 mg حسب الوزن)'],
    ] as const) {
      const { page, errors, close } = await openPage(browser, `${product.url}${address}`);
      const card = await emergencyCardFor(page, '120', child);
      const line = card.locator('[data-section="bradycardia"] [data-step="secondLine"]');
      await expect.poll(() => line.getByTestId('emergency-dose').innerText()).toBe('1 mg');
      expect(await line.getByTestId('emergency-volume').innerText()).toMatch(/^= 10 mL/);
      expect(await line.getByTestId('emergency-limit').innerText()).toBe(capped);
      expect(await line.innerText()).toContain('PALS 2020');
      // the anaphylaxis line: 1 in 2,500 (Miyazaki 2018) to 1 in 5,000 (Orihara 2020)
      const note = await card.locator('[data-section="anaphylaxis"] > p').first().innerText();
      expect(note).toMatch(/2,500.*Miyazaki 2018.*5,000.*Orihara 2020/s);
      expect(errors).toEqual([]);
      await close();
    }
  });

  it('"Copy as note" from the Arabic calculator: an English note with no bidi marks and no Arabic', async () => {
    const { page, errors, close } = await openPage(browser, `${product.url}/ar/`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
    await waitForWidget(page, 'sgx-dose-calculator');
    const calculator = page.locator('sgx-dose-calculator');
    await calculateInArabic(calculator, { weight: '70', tof: '2' });
    await calculator.getByRole('button', { name: ar.doseCalculator.copyNote }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('Dose Calculator');
    const note = await page.evaluate(() => navigator.clipboard.readText());
    expect(note).not.toMatch(/[\u2066-\u2069]/);
    expect(note).not.toMatch(/[\u0600-\u06ff]/);
    expect(note).toContain('Body weight: 70 kg');
    expect(note).toContain('Moderate block (TOF count 2: T2 has reappeared)');
    expect(note).toContain('Dose: 2 mg/kg = 140 mg');
    // what a reader copies from the Arabic result itself carries no invisible character either
    const shown = await calculator.locator('[part="result"]').evaluate((element) => element.textContent ?? '');
    expect(shown).not.toMatch(/[\u2066-\u2069\u00a0\u2060]/);
    expect(errors).toEqual([]);
    await close();
  });
});
