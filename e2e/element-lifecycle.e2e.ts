import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { openPage, startProductServer, waitForWidget } from './support.ts';

// Host frameworks change an element's presets after it rendered (a Vue `:weight` binding, a patient
// switch) and take elements out of the page and put them back (Vue <KeepAlive>, tab panels,
// routers). A preset change is followed and clears a result computed for the old values; a round
// trip keeps what was typed and the result, and adds no styles.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let site: Awaited<ReturnType<typeof serveFiles>>;
beforeAll(async () => {
  product = await startProductServer();
  site = await serveFiles({
    '/': {
      body: `<!doctype html><meta charset="utf-8"><title>lifecycle</title>
<div id="panel"><sgx-dose-calculator id="calc" weight="70"></sgx-dose-calculator>
<sgx-roi-calculator id="roi" cases="120"></sgx-roi-calculator>
<sgx-bradycardia-advisor id="advisor" api-base="${product.url}"></sgx-bradycardia-advisor></div>
<script type="module" src="${product.url}/widgets/sgx-widgets.js"></script>`,
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

const totalDose = async (widget: Locator) =>
  /Total dose\s+(\d+) mg/.exec(await widget.getByRole('region', { name: 'Result' }).innerText())?.[1];
const calculate = (widget: Locator) => widget.getByRole('button', { name: 'Calculate Dose' }).click();
const styleCount = (page: Page, id: string) =>
  page.evaluate((elementId) => document.getElementById(elementId)!.shadowRoot!.querySelectorAll('style').length, id);

/** The page with the dose calculator's result for its preset 70 kg at TOF count 2: 140 mg. */
async function withDoseFor70kg() {
  const opened = await openPage(browser, site.url);
  await waitForWidget(opened.page, '#calc');
  const widget = opened.page.locator('#calc');
  await widget.getByLabel(/^TOF count/).selectOption('2');
  await calculate(widget);
  expect(await totalDose(widget)).toBe('140');
  return { ...opened, widget };
}

describe('a preset changed by the host page', () => {
  it('weight: the attribute and the property replace the field, clear the old result and say so', async () => {
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    const widget = page.locator('#calc');
    expect(await widget.getByLabel(/^Body weight/).inputValue()).toBe('70');
    await widget.getByLabel(/^TOF count/).selectOption('2');
    await calculate(widget);
    expect(await totalDose(widget)).toBe('140');

    await page.evaluate(() => document.getElementById('calc')!.setAttribute('weight', '80'));
    await expect.poll(() => widget.getByLabel(/^Body weight/).inputValue()).toBe('80');
    expect(await widget.getByRole('region', { name: 'Result' }).count()).toBe(0);
    expect(await widget.getByTestId('dose-notice').innerText()).toBe(
      'The page changed the preset weight or age group: the form shows the ' +
        'new values. The previous result was for the old values and has been ' +
        'cleared. Check the form and calculate again.',
    );
    await calculate(widget);
    expect(await totalDose(widget)).toBe('160');
    expect(await widget.getByTestId('dose-notice').count()).toBe(0);

    await page.evaluate(() => ((document.getElementById('calc') as HTMLElement & { weight: string }).weight = '55'));
    await expect.poll(() => widget.getByLabel(/^Body weight/).inputValue()).toBe('55');
    expect(await widget.getByRole('region', { name: 'Result' }).count()).toBe(0);
    await calculate(widget);
    expect(await totalDose(widget)).toBe('110');
    expect(errors).toEqual([]);
    await close();
  });

  it('age group: the attribute replaces the selection (an infant is then "not established", not dosed)', async () => {
    const { page, errors, close, widget } = await withDoseFor70kg();
    await page.evaluate(() => document.getElementById('calc')!.setAttribute('age-group', 'infant'));
    await expect.poll(() => widget.getByLabel(/^Age group/).inputValue()).toBe('infant');
    expect(await widget.getByRole('region', { name: 'Result' }).count()).toBe(0);
    await calculate(widget);
    expect(await widget.getByRole('region', { name: 'Result' }).getAttribute('data-outcome')).toBe('not_established');
    expect(errors).toEqual([]);
    await close();
  });

  it('a removed weight attribute is a removed preset: the field empties and the old result goes', async () => {
    const { page, errors, close, widget } = await withDoseFor70kg();
    await page.evaluate(() => document.getElementById('calc')!.removeAttribute('weight'));
    await expect.poll(() => widget.getByLabel(/^Body weight/).inputValue()).toBe('');
    expect(await widget.getByRole('region', { name: 'Result' }).count()).toBe(0);
    expect(await widget.getByTestId('dose-notice').innerText()).toContain('The previous result was for the old values');
    expect(errors).toEqual([]);
    await close();
  });

  it('`emergency` with no value shows the Emergency button; "false" or removing it hides it', async () => {
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    const button = page.locator('#calc').getByRole('button', { name: 'Emergency' });
    expect(await button.count()).toBe(0);
    const setEmergency = (value: string | null) =>
      page.evaluate((next) => {
        const element = document.getElementById('calc')!;
        if (next === null) element.removeAttribute('emergency');
        else element.setAttribute('emergency', next);
      }, value);
    await setEmergency('');
    await expect.poll(() => button.count()).toBe(1);
    await setEmergency('false');
    await expect.poll(() => button.count()).toBe(0);
    await setEmergency('');
    await expect.poll(() => button.count()).toBe(1);
    await setEmergency(null);
    await expect.poll(() => button.count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('a value typed after the preset is kept until the preset itself changes', async () => {
    const { page, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    const widget = page.locator('#calc');
    await widget.getByLabel(/^Body weight/).fill('72');
    // same value: no change
    await page.evaluate(() => document.getElementById('calc')!.setAttribute('age-group', 'adult'));
    await page.waitForTimeout(50);
    expect(await widget.getByLabel(/^Body weight/).inputValue()).toBe('72');
    await close();
  });

  it('the ROI calculator follows its preset attributes and properties too', async () => {
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#roi');
    const cases = page.locator('#roi').getByLabel(/^Number of cases/);
    expect(await cases.inputValue()).toBe('120');
    await page.evaluate(() => document.getElementById('roi')!.setAttribute('cases', '250'));
    await expect.poll(() => cases.inputValue()).toBe('250');
    await page.evaluate(() => ((document.getElementById('roi') as HTMLElement & { cases: string }).cases = '300'));
    await expect.poll(() => cases.inputValue()).toBe('300');
    expect(errors).toEqual([]);
    await close();
  });
});

describe('an element detached and attached again', () => {
  it('five round trips keep the typed values and the result, and add no <style> tags', async () => {
    const { page, errors, close } = await openPage(browser, site.url);
    for (const id of ['#calc', '#roi', '#advisor']) await waitForWidget(page, id);
    const calc = page.locator('#calc');
    await calc.getByLabel(/^Body weight/).fill('72.5');
    await calc.getByLabel(/^TOF count/).selectOption('2');
    await calculate(calc);
    expect(await totalDose(calc)).toBe('145');
    await page
      .locator('#roi')
      .getByLabel(/^Number of cases/)
      .fill('321');
    await page
      .locator('#advisor')
      .getByLabel(/^Weight/)
      .fill('64');
    const styles = {
      calc: await styleCount(page, 'calc'),
      roi: await styleCount(page, 'roi'),
      advisor: await styleCount(page, 'advisor'),
    };

    for (let round = 1; round <= 5; round += 1) {
      // Out of the page long enough for each element to unmount its React tree, then back.
      await page.evaluate(() => {
        const held = ['calc', 'roi', 'advisor'].map((id) => document.getElementById(id)!);
        (window as unknown as { __held: HTMLElement[] }).__held = held;
        for (const element of held) element.remove();
      });
      await page.waitForTimeout(120);
      await page.evaluate(() => {
        for (const element of (window as unknown as { __held: HTMLElement[] }).__held)
          document.getElementById('panel')!.append(element);
      });
      for (const id of ['#calc', '#roi', '#advisor']) await waitForWidget(page, id);
      expect(await calc.getByLabel(/^Body weight/).inputValue()).toBe('72.5');
      expect(await calc.getByLabel(/^TOF count/).inputValue()).toBe('2');
      expect(await totalDose(calc)).toBe('145');
      expect(
        await page
          .locator('#roi')
          .getByLabel(/^Number of cases/)
          .inputValue(),
      ).toBe('321');
      expect(
        await page
          .locator('#advisor')
          .getByLabel(/^Weight/)
          .inputValue(),
      ).toBe('64');
      expect({
        calc: await styleCount(page, 'calc'),
        roi: await styleCount(page, 'roi'),
        advisor: await styleCount(page, 'advisor'),
      }).toEqual(styles);
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('a value typed in the same task as the detach is kept', async () => {
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#advisor');
    const weight = page.locator('#advisor').getByLabel(/^Weight/);
    await weight.fill('64');
    // A host page's keystroke handler that also switches tabs: the input event, then the element out.
    await page.evaluate(() => {
      const advisor = document.getElementById('advisor')!;
      const input = [...advisor.shadowRoot!.querySelectorAll('input')].find((field) =>
        field.labels?.[0]?.textContent?.startsWith('Weight'),
      )!;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '65');
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      advisor.remove();
      (window as unknown as { __held: HTMLElement }).__held = advisor;
    });
    await page.waitForTimeout(120);
    await page.evaluate(() =>
      document.getElementById('panel')!.append((window as unknown as { __held: HTMLElement }).__held),
    );
    await waitForWidget(page, '#advisor');
    await expect.poll(() => weight.inputValue()).toBe('65');
    await page.waitForTimeout(300);
    expect(await weight.inputValue()).toBe('65');
    expect(errors).toEqual([]);
    await close();
  });
});
