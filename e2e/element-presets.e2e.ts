import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLINICAL_TEXTS_AR, CLINICAL_TEXTS_EN } from '../clinical/index.ts';
import { withoutIsolates } from '../clinical/bidi.ts';
import { messagesEn } from '../widgets/shared/lang/messages/index.ts';
import { messagesAr } from '../widgets/shared/lang/messages/ar/index.ts';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { openPage, repoRoot, startProductServer, waitForWidget } from './support.ts';

// Issue 30, items 2-4: presets as a host page writes them (any case and spacing, the British spelling, a
// value that means nothing), from a React 19 app that renders before the elements' script, and the texts
// an element shows when its language changes live.
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

const page = (body: string, bundle = 'sgx-dose-calculator') =>
  serveFiles({
    '/': {
      body:
        `<!doctype html><html lang="en"><meta charset="utf-8"><title>presets</title>${body}` +
        `<script type="module" src="${product.url}/widgets/${bundle}.js"></script>`,
      type: 'text/html; charset=utf-8',
    },
  });

/** The page and the console warnings it logged. */
async function openWithWarnings(url: string) {
  const opened = await openPage(browser, 'about:blank');
  const warnings: string[] = [];
  opened.page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await opened.page.goto(url);
  return { ...opened, warnings };
}

const ageGroupField = (widget: Locator) => widget.getByLabel(/^Age group|^الفئة العمرية/);
/** The age group field's own error (tied to it by aria-describedby), or null. */
const ageGroupError = (widget: Locator) =>
  ageGroupField(widget).evaluate((select) => {
    const root = select.getRootNode() as ShadowRoot;
    const ids = (select.getAttribute('aria-describedby') ?? '').split(' ');
    return ids.map((id) => root.getElementById(id)).find((node) => node?.id.endsWith('-error'))?.textContent ?? null;
  });

describe('age-group preset', () => {
  it('accepts case and spacing variants and the British spelling; anything else is unset, with a message', async () => {
    const site = await page(
      `<sgx-dose-calculator id="a" age-group="paediatric"></sgx-dose-calculator>
<sgx-dose-calculator id="b" age-group="Pediatric"></sgx-dose-calculator>
<sgx-dose-calculator id="c" age-group=" infant "></sgx-dose-calculator>
<sgx-dose-calculator id="d" age-group="ADULT"></sgx-dose-calculator>
<sgx-dose-calculator id="e" age-group="bogus" weight="70"></sgx-dose-calculator>
<sgx-dose-calculator id="f" age-group="bogus" lang="ar"></sgx-dose-calculator>`,
    );
    const { page: tab, errors, warnings, close } = await openWithWarnings(site.url);
    for (const [id, expected] of [
      ['a', 'pediatric'],
      ['b', 'pediatric'],
      ['c', 'infant'],
      ['d', 'adult'],
      ['e', ''],
    ] as const) {
      await waitForWidget(tab, `#${id}`);
      expect([id, await ageGroupField(tab.locator(`#${id}`)).inputValue()]).toEqual([id, expected]);
    }
    // the shown option, not only the value
    expect(
      await ageGroupField(tab.locator('#a')).evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text),
    ).toBe(messagesEn.doseCalculator.ageGroups.pediatric);

    const bogus = tab.locator('#e');
    const shownMessage = messagesEn.doseCalculator.unknownAgeGroupPreset('bogus');
    expect(await ageGroupError(bogus)).toBe(shownMessage);
    expect(await ageGroupField(bogus).getAttribute('aria-invalid')).toBe('true');
    expect(warnings.filter((warning) => warning.includes('"bogus"'))).toHaveLength(2);
    expect(warnings[0]).toContain('<sgx-dose-calculator>');
    // never a silent adult: a calculation asks for the age group instead
    await bogus.getByLabel(/^TOF count/).selectOption('2');
    await bogus.getByRole('button', { name: 'Calculate Dose' }).click();
    expect(await bogus.getByRole('region', { name: 'Result' }).count()).toBe(0);
    expect(await bogus.getByRole('alert').first().innerText()).toBe(CLINICAL_TEXTS_EN.doseInput.ageGroup);
    // chosen by hand, it computes
    await ageGroupField(bogus).selectOption('adult');
    await bogus.getByRole('button', { name: 'Calculate Dose' }).click();
    await expect.poll(() => bogus.locator('[part="result"]').innerText()).toContain('140 mg');

    await waitForWidget(tab, '#f');
    const arabic = tab.locator('#f');
    expect(await ageGroupField(arabic).inputValue()).toBe('');
    expect(await ageGroupError(arabic)).toBe(withoutIsolates(messagesAr.doseCalculator.unknownAgeGroupPreset('bogus')));
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('a preset changed to an unknown value later unsets the field too (no adult kept)', async () => {
    const site = await page(`<sgx-dose-calculator id="calc" age-group="pediatric"></sgx-dose-calculator>`);
    const { page: tab, errors, close } = await openWithWarnings(site.url);
    await waitForWidget(tab, '#calc');
    const widget = tab.locator('#calc');
    expect(await ageGroupField(widget).inputValue()).toBe('pediatric');
    await tab.evaluate(() => document.getElementById('calc')!.setAttribute('age-group', 'elderly'));
    await expect.poll(() => ageGroupField(widget).inputValue()).toBe('');
    expect(await ageGroupError(widget)).toBe(messagesEn.doseCalculator.unknownAgeGroupPreset('elderly'));
    await tab.evaluate(() => document.getElementById('calc')!.setAttribute('age-group', 'Paediatric'));
    await expect.poll(() => ageGroupField(widget).inputValue()).toBe('pediatric');
    expect(await ageGroupError(widget)).toBeNull();
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });
});

/** The React 19 host app (e2e/fixtures/react19-host.ts), bundled with React 19 itself. */
async function buildReactHost(): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root: repoRoot,
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: false,
      lib: { entry: path.join(repoRoot, 'e2e/fixtures/react19-host.ts'), formats: ['es'], fileName: 'host' },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => result.output);
  const entry = chunks.find((chunk): chunk is Rollup.OutputChunk => chunk.type === 'chunk' && chunk.isEntry);
  if (!entry) throw new Error('the React host app was not built');
  return entry.code;
}

describe('a React 19 page that renders the elements before their script loads', () => {
  it('keeps every camelCase prop of all four elements (ageGroup, orCostPerMinute, profileHref, …)', async () => {
    const props = {
      'sgx-dose-calculator': { id: 'dose', apiBase: product.url, weight: '20', ageGroup: 'pediatric', emergency: '' },
      'sgx-bradycardia-advisor': { id: 'advisor', apiBase: product.url, emergency: 'true' },
      'sgx-roi-calculator': {
        id: 'roi',
        apiBase: product.url,
        cases: '250',
        orCostPerMinute: '60',
        timeNeostigmine: '20',
        timeProduct: '4',
        baselinePpcRate: '12',
        calculatorTarget: '#dose',
        guideHref: '/guide.pdf',
      },
      'sgx-access-portal': { id: 'portal', apiBase: product.url, profileHref: '/profile' },
    };
    const hostConfig = { script: `${product.url}/widgets/sgx-widgets.js`, elements: props };
    const site = await serveFiles({
      '/': {
        body:
          `<!doctype html><html lang="en"><meta charset="utf-8"><title>react 19</title><div id="app"></div>` +
          `<script>window.__host = ${JSON.stringify(hostConfig)}</script>` +
          `<script type="module" src="/host.js"></script>`,
        type: 'text/html; charset=utf-8',
      },
      '/host.js': { body: await buildReactHost(), type: 'text/javascript' },
    });
    const { page: tab, errors, close } = await openPage(browser, site.url);
    for (const id of ['dose', 'advisor', 'roi', 'portal']) await waitForWidget(tab, `#${id}`);
    expect(
      await tab.evaluate(
        () => (window as unknown as { __renderedBeforeDefinition: boolean }).__renderedBeforeDefinition,
      ),
    ).toBe(true);
    const properties = await tab.evaluate(
      (all) =>
        Object.fromEntries(
          Object.entries(all).map(([tag, given]) => {
            const element = document.querySelector(tag) as unknown as Record<string, unknown>;
            return [tag, Object.fromEntries(Object.keys(given).map((prop) => [prop, element[prop]]))];
          }),
        ),
      props,
    );
    expect(properties).toEqual(props);
    const dose = tab.locator('#dose');
    expect(await ageGroupField(dose).inputValue()).toBe('pediatric');
    expect(await dose.getByLabel(/^Body weight/).inputValue()).toBe('20');
    expect(await dose.getByRole('button', { name: 'Emergency' }).count()).toBe(1);
    const roi = tab.locator('#roi');
    expect(
      await roi
        .getByLabel(/^Number of cases/)
        .first()
        .inputValue(),
    ).toBe('250');
    expect(
      await roi
        .getByLabel(/^OR cost/)
        .first()
        .inputValue(),
    ).toBe('60');
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  async function pageWithEarlyProperty(html: string) {
    const site = await serveFiles({
      '/': { body: `<!doctype html><meta charset="utf-8"><title>early</title>${html}`, type: 'text/html' },
    });
    return site;
  }

  it('a property set by a script before the definition is taken on upgrade, for every documented one', async () => {
    const site = await pageWithEarlyProperty(
      `<sgx-dose-calculator id="dose"></sgx-dose-calculator><sgx-roi-calculator id="roi"></sgx-roi-calculator>
<sgx-access-portal id="portal"></sgx-access-portal><sgx-bradycardia-advisor id="advisor"></sgx-bradycardia-advisor>
<script>
  Object.assign(document.getElementById('dose'), { ageGroup: 'infant', weight: '8', emergency: 'true' });
  Object.assign(document.getElementById('roi'), { cases: '320', orCostPerMinute: '50', guideHref: '/g.pdf' });
  Object.assign(document.getElementById('portal'), { profileHref: '/me' });
  Object.assign(document.getElementById('advisor'), { emergency: '' });
</script>
<script type="module" src="${product.url}/widgets/sgx-widgets.js"></script>`,
    );
    const { page: tab, errors, close } = await openPage(browser, site.url);
    for (const id of ['dose', 'advisor', 'roi', 'portal']) await waitForWidget(tab, `#${id}`);
    const dose = tab.locator('#dose');
    expect(await ageGroupField(dose).inputValue()).toBe('infant');
    expect(await dose.getByLabel(/^Body weight/).inputValue()).toBe('8');
    expect(await tab.locator('#advisor').getByRole('button', { name: 'Emergency' }).count()).toBe(1);
    expect(
      await tab
        .locator('#roi')
        .getByLabel(/^Number of cases/)
        .first()
        .inputValue(),
    ).toBe('320');
    // no own property left hiding the element's accessor
    const own = await tab.evaluate(() =>
      ['dose', 'roi', 'portal', 'advisor'].flatMap((id) => {
        const element = document.getElementById(id)!;
        const documented = ['ageGroup', 'weight', 'emergency', 'cases', 'orCostPerMinute', 'guideHref', 'profileHref'];
        return documented.filter((key) => Object.hasOwn(element, key)).map((key) => `${id}.${key}`);
      }),
    );
    expect(own).toEqual([]);
    expect(
      await tab.evaluate(() => (document.getElementById('portal') as unknown as { profileHref: string }).profileHref),
    ).toBe('/me');
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });
});

async function toastText(widget: Locator) {
  return widget.getByRole('region', { name: /^Notifications$|^الإشعارات$/ }).innerText();
}
const setLang = (tab: Page, id: string, lang: string) =>
  tab.evaluate(([target, value]) => document.getElementById(target!)!.setAttribute('lang', value!), [id, lang]);

describe('a live switch of language', () => {
  it('the preset notice, the field errors and the toast follow the element into Arabic and back', async () => {
    const site = await page(
      `<sgx-dose-calculator id="notice" weight="70"></sgx-dose-calculator>
<sgx-dose-calculator id="errors"></sgx-dose-calculator>`,
    );
    const { page: tab, errors, close } = await openPage(browser, site.url);
    await waitForWidget(tab, '#notice');
    await waitForWidget(tab, '#errors');

    const notice = tab.locator('#notice');
    await tab.evaluate(() => document.getElementById('notice')!.setAttribute('weight', '80'));
    await expect
      .poll(() => notice.getByTestId('dose-notice').innerText())
      .toBe(messagesEn.doseCalculator.presetChanged);
    await setLang(tab, 'notice', 'ar');
    await expect
      .poll(() => notice.getByTestId('dose-notice').innerText())
      .toBe(messagesAr.doseCalculator.presetChanged);

    const form = tab.locator('#errors');
    await form.getByRole('button', { name: 'Calculate Dose' }).click();
    await expect.poll(() => toastText(form)).toContain(messagesEn.doseCalculator.invalidInputTitle);
    expect(await form.locator('[role="alert"]').first().innerText()).toBe(CLINICAL_TEXTS_EN.doseInput.invalidWeight);
    await setLang(tab, 'errors', 'ar');
    await expect.poll(() => toastText(form)).toContain(messagesAr.doseCalculator.invalidInputTitle);
    expect(await toastText(form)).toContain(CLINICAL_TEXTS_AR.doseInput.invalidWeight);
    expect(await form.locator('[part="field"] [role="alert"]').first().innerText()).toBe(
      CLINICAL_TEXTS_AR.doseInput.invalidWeight,
    );
    await setLang(tab, 'errors', 'en');
    await expect.poll(() => toastText(form)).toContain(messagesEn.doseCalculator.invalidInputTitle);
    expect(await form.locator('[part="field"] [role="alert"]').first().innerText()).toBe(
      CLINICAL_TEXTS_EN.doseInput.invalidWeight,
    );
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('the advisor’s field errors and toast too', async () => {
    const site = await page(
      `<sgx-bradycardia-advisor id="advisor"></sgx-bradycardia-advisor>`,
      'sgx-bradycardia-advisor',
    );
    const { page: tab, errors, close } = await openPage(browser, site.url);
    await waitForWidget(tab, '#advisor');
    const advisor = tab.locator('#advisor');
    await advisor.getByRole('button', { name: messagesEn.advisor.assess }).click();
    await expect.poll(() => toastText(advisor)).toContain(messagesEn.advisor.missingTitle);
    expect(await advisor.locator('[part="field"] [role="alert"]').first().innerText()).toBe(
      CLINICAL_TEXTS_EN.advisorInput.missingInformation,
    );
    await setLang(tab, 'advisor', 'ar');
    await expect.poll(() => toastText(advisor)).toContain(messagesAr.advisor.missingTitle);
    expect(await advisor.locator('[part="field"] [role="alert"]').first().innerText()).toBe(
      CLINICAL_TEXTS_AR.advisorInput.missingInformation,
    );
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });
});
