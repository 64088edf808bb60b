import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FRESH_ADDRESSES, type EmbedBuild, type EmbedManifest } from '../scripts/build-delivery.mjs';
import { REACT_WIDGETS_DIR, WIDGET_ENTRIES } from '../scripts/build-widgets.mjs';
import { pinnedSnippet } from '../scripts/embed-snippets.mjs';
import { staticImportGraph } from '../scripts/module-graph.mjs';
import { launchBrowser } from './browser.ts';
import { serveFiles, type StaticFiles } from './static-server.ts';
import { openPage, PRODUCT_ORIGIN_PLACEHOLDER, serveExample, startProductServer, waitForWidget } from './support.ts';

// The release's React build (/widgets/react/ and /widgets/<version>/react/: the same elements built on React
// itself, README "Embedding the elements"), checked as the default build is, in one lean pass: what it is and how
// embed.json lists it, then the element e2e's scenarios on it: behaviour (element-behaviour.e2e.ts), lifecycle
// (element-lifecycle.e2e.ts), embedding (embedding.e2e.ts, pinned-embed.e2e.ts) and the API across origins
// (cross-origin.e2e.ts). The same tests run in jsdom on React in the `dom-react` project (vitest.config.ts).
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let embed: EmbedManifest;
let react: EmbedBuild;
/** Pages of other origins; the first is listed in the API's ALLOWED_ORIGINS (the CMS page). */
const listedFiles: StaticFiles = {};
let listed: Awaited<ReturnType<typeof serveFiles>>;

const TAGS = ['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator', 'sgx-access-portal'];
const REACT_PATH = `/widgets/${REACT_WIDGETS_DIR}`;

beforeAll(async () => {
  listed = await serveFiles(listedFiles);
  product = await startProductServer({ ALLOWED_ORIGINS: listed.url });
  browser = await launchBrowser();
  embed = (await (await fetch(`${product.url}/widgets/embed.json`)).json()) as EmbedManifest;
  react = embed.react!;
});
afterAll(async () => {
  await browser?.close();
  await listed?.close();
  await product?.close();
});

/** A page of another origin (its own port) holding `body`, then the React build's `bundle`. */
const pageWith = (body: string, bundle = 'sgx-dose-calculator') =>
  serveFiles({
    '/': {
      body:
        `<!doctype html><meta charset="utf-8"><title>react build</title>\n${body}\n` +
        `<script type="module" src="${product.url}${REACT_PATH}/${bundle}.js"></script>`,
      type: 'text/html; charset=utf-8',
    },
  });

/** Whether React DOM rendered the element's shadow root: it keeps its fiber on each node it made. */
const renderedByReact = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const form = document.querySelector(sel)!.shadowRoot!.querySelector('form, button')!;
    return Object.keys(form).some((key) => key.startsWith('__reactFiber$'));
  }, selector);

const totalDose = async (widget: Locator) =>
  /Total dose\s+(\d+) mg/.exec(await widget.getByRole('region', { name: 'Result' }).innerText())?.[1];

async function computeDose(widget: Locator, weight: string, tof: string) {
  await widget.getByLabel(/^Body weight/).fill(weight);
  await widget.getByLabel(/^TOF count/).selectOption(tof);
  await widget.getByRole('button', { name: 'Calculate Dose' }).click();
  return totalDose(widget);
}

const sha384 = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

describe('the React build as released', () => {
  it('is React itself, in self-contained bundles with no development build or process.env', async () => {
    const dir = path.join(inject('e2eBuild').widgetsDir, REACT_WIDGETS_DIR);
    const entries = (await readdir(dir)).filter((file) => file.endsWith('.js')).sort();
    expect(entries).toEqual(WIDGET_ENTRIES.map((name) => `${name}.js`).sort());
    for (const file of entries) {
      const code = await readFile(path.join(dir, file), 'utf8');
      // React DOM's production build links its errors to react.dev; the Preact build has no such text
      expect([file, code.includes('https://react.dev/errors/')]).toEqual([file, true]);
      expect([file, code.includes('process.env'), code.includes('react-dom.development')]).toEqual([
        file,
        false,
        false,
      ]);
      expect(staticImportGraph(dir, file)).toEqual([file]); // self-contained: no static import of a chunk
    }
    const preact = await readFile(path.join(inject('e2eBuild').widgetsDir, 'sgx-dose-calculator.js'), 'utf8');
    expect(preact.includes('https://react.dev/errors/')).toBe(false);
  });

  it('embed.json lists it under `react`, at the versioned URLs, each file with its bytes’ integrity', async () => {
    expect(Object.keys(react.elements).sort()).toEqual([...WIDGET_ENTRIES].sort());
    const versioned = `/widgets/${embed.version}/${REACT_WIDGETS_DIR}/`;
    for (const [name, element] of Object.entries(react.elements)) {
      expect(element.url).toBe(`${versioned}${name}.js`);
      const bytes = Buffer.from(await (await fetch(`${product.url}${element.url}`)).arrayBuffer());
      expect([name, sha384(bytes)]).toEqual([name, element.integrity]);
      // the default build's bundle is another file
      expect([name, element.integrity === embed.elements[name]!.integrity]).toEqual([name, false]);
      const files = new Set(Object.keys(element.chunks).map((address) => address.replace(/\?retry=\d$/, '')));
      expect([name, files.size > 0]).toEqual([name, true]);
      for (const file of files) {
        expect(file.startsWith(`${versioned}chunks/`)).toBe(true);
        expect(element.chunks[file]).toBe(react.chunks[file]);
        // and at each fresh address a retry may use (widgets/shared/loading/load-once.ts), with the same integrity
        for (let retry = 1; retry <= FRESH_ADDRESSES; retry += 1)
          expect(element.chunks[`${file}?retry=${retry}`]).toBe(react.chunks[file]);
      }
    }
    for (const [url, integrity] of Object.entries(react.chunks)) {
      const bytes = Buffer.from(await (await fetch(`${product.url}${url}`)).arrayBuffer());
      expect([url, sha384(bytes)]).toEqual([url, integrity]);
    }
    const pinned = await fetch(`${product.url}${react.elements['sgx-dose-calculator']!.url}`);
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(pinned.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('the React build on pages of other origins', () => {
  it('each bundle alone on a blank page defines its elements, rendered by React, with no error', async () => {
    for (const bundle of WIDGET_ENTRIES) {
      const tags = bundle === 'sgx-widgets' ? TAGS : [bundle];
      const site = await pageWith(tags.map((tag) => `<${tag}></${tag}>`).join(''), bundle);
      const { page, errors, close } = await openPage(browser, site.url);
      for (const tag of tags) {
        await waitForWidget(page, tag);
        expect([bundle, tag, await renderedByReact(page, tag)]).toEqual([bundle, tag, true]);
      }
      expect([bundle, errors]).toEqual([bundle, []]);
      await close();
      await site.close();
    }
  });

  it('the dose calculator computes 140 mg for 70 kg at TOF 2, sends its event, takes theme tokens, moves', async () => {
    const site = await pageWith(`<div id="left"><sgx-dose-calculator id="calc"></sgx-dose-calculator></div>
<div id="right"></div>
<script>
  window.__events = [];
  document.addEventListener('sgx-dose-calculated', (e) => window.__events.push({
    total: e.detail.outcome.totalDoseMg, composed: e.composed, bubbles: e.bubbles, target: e.target.id,
  }));
</script>`);
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    const widget = page.locator('#calc');
    expect(await computeDose(widget, '70', '2')).toBe('140');
    expect(await widget.getByRole('region', { name: 'Result' }).innerText()).toMatch(/2 mg\/kg/);
    expect(await page.evaluate(() => (window as unknown as { __events: unknown[] }).__events)).toEqual([
      { total: 140, composed: true, bubbles: true, target: 'calc' },
    ]);
    const button = widget.getByRole('button', { name: 'Calculate Dose' });
    const background = () => button.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await background()).toBe('rgb(15, 118, 110)');
    await page.evaluate(() => document.getElementById('calc')!.style.setProperty('--sgx-color-primary', '#7c3aed'));
    expect(await background()).toBe('rgb(124, 58, 237)');
    // moved to another parent: the value typed and the result stay
    await widget.getByLabel(/^Body weight/).fill('72.5');
    await page.evaluate(() => document.getElementById('right')!.appendChild(document.getElementById('calc')!));
    await page.waitForTimeout(50);
    expect(
      await page
        .locator('#right #calc')
        .getByLabel(/^Body weight/)
        .inputValue(),
    ).toBe('72.5');
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('presets changed by the page, and five detach/attach round trips (sgx-widgets.js)', async () => {
    const site = await pageWith(
      `<div id="panel"><sgx-dose-calculator id="calc" weight="70"></sgx-dose-calculator>
<sgx-roi-calculator id="roi" cases="120"></sgx-roi-calculator></div>`,
      'sgx-widgets',
    );
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, '#calc');
    await waitForWidget(page, '#roi');
    const calc = page.locator('#calc');
    expect(await computeDose(calc, '70', '2')).toBe('140');
    // a preset changed after the result: the field follows, the old result goes and a notice says so
    await page.evaluate(() => document.getElementById('calc')!.setAttribute('weight', '80'));
    await expect.poll(() => calc.getByLabel(/^Body weight/).inputValue()).toBe('80');
    expect(await calc.getByRole('region', { name: 'Result' }).count()).toBe(0);
    expect(await calc.getByTestId('dose-notice').innerText()).toContain('The previous result was for the old values');
    await page.evaluate(() => ((document.getElementById('roi') as HTMLElement & { cases: string }).cases = '250'));
    await expect
      .poll(() =>
        page
          .locator('#roi')
          .getByLabel(/^Number of cases/)
          .inputValue(),
      )
      .toBe('250');

    expect(await computeDose(calc, '72.5', '2')).toBe('145');
    const styles = () =>
      page.evaluate(() =>
        ['calc', 'roi'].map((id) => document.getElementById(id)!.shadowRoot!.querySelectorAll('style').length),
      );
    const before = await styles();
    for (let round = 1; round <= 5; round += 1) {
      await page.evaluate(() => {
        const held = ['calc', 'roi'].map((id) => document.getElementById(id)!);
        (window as unknown as { __held: HTMLElement[] }).__held = held;
        for (const element of held) element.remove();
      });
      await page.waitForTimeout(120); // long enough for each element to unmount its React tree
      await page.evaluate(() => {
        for (const element of (window as unknown as { __held: HTMLElement[] }).__held)
          document.getElementById('panel')!.append(element);
      });
      await waitForWidget(page, '#calc');
      expect([round, await calc.getByLabel(/^Body weight/).inputValue(), await totalDose(calc)]).toEqual([
        round,
        '72.5',
        '145',
      ]);
      expect([round, await styles()]).toEqual([round, before]);
    }
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('the hostile intranet page: host CSS changes nothing inside, and a dose is computed', async () => {
    const intranet = await serveExample('intranet.html', product.url);
    const html = (await (await fetch(intranet.url)).text()).replace(
      `${product.url}/widgets/sgx-dose-calculator.js`,
      `${product.url}${REACT_PATH}/sgx-dose-calculator.js`,
    );
    await intranet.close();
    expect(html).toContain(`${REACT_PATH}/sgx-dose-calculator.js`);
    const site = await serveFiles({ '/': { body: html, type: 'text/html; charset=utf-8' } });
    const clean = await pageWith('<sgx-dose-calculator></sgx-dose-calculator>');
    const styleInside = async (page: Page) => {
      await waitForWidget(page, 'sgx-dose-calculator');
      return page.evaluate(() => {
        const root = document.querySelector('sgx-dose-calculator')!.shadowRoot!;
        return ['h2', 'input[name="bodyWeight"]', 'button[type="submit"]', 'label'].map((selector) => {
          const style = getComputedStyle(root.querySelector(selector)!);
          return [style.fontSize, style.lineHeight, style.color, style.fontFamily, style.textTransform, style.margin];
        });
      });
    };
    const hostile = await openPage(browser, site.url);
    const plain = await openPage(browser, clean.url);
    expect(await styleInside(hostile.page)).toEqual(await styleInside(plain.page));
    expect(await renderedByReact(hostile.page, 'sgx-dose-calculator')).toBe(true);
    expect(await computeDose(hostile.page.locator('sgx-dose-calculator'), '70', '2')).toBe('140');
    expect(hostile.errors).toEqual([]);
    for (const tab of [hostile, plain]) await tab.close();
    await site.close();
    await clean.close();
  });

  it('the advisor on the CMS page of a listed origin: the API answers across origins, the results show', async () => {
    const cms = await serveExample('cms.html', product.url);
    const html = (await (await fetch(cms.url)).text()).replace(
      `${product.url}/widgets/sgx-bradycardia-advisor.js`,
      `${product.url}${REACT_PATH}/sgx-bradycardia-advisor.js`,
    );
    await cms.close();
    expect(html).toContain(`${REACT_PATH}/sgx-bradycardia-advisor.js`);
    expect(html).not.toContain(PRODUCT_ORIGIN_PLACEHOLDER);
    listedFiles['/'] = { body: html, type: 'text/html; charset=utf-8' };
    const { page, errors, close } = await openPage(browser, listed.url);
    await waitForWidget(page, 'sgx-bradycardia-advisor');
    expect(await renderedByReact(page, 'sgx-bradycardia-advisor')).toBe(true);
    const widget = page.locator('sgx-bradycardia-advisor');
    const answered = page.waitForResponse((response) => response.url().startsWith(`${product.url}/api/tools/run`));
    await widget.getByLabel(/^Weight/).fill('70');
    await widget.getByLabel(/^Age/).fill('80');
    await widget.getByLabel(/^Baseline heart rate/).fill('55');
    await widget.getByLabel(/^Creatinine clearance/).fill('60');
    await widget.getByRole('checkbox', { name: 'Beta-blocker' }).check();
    await widget.getByRole('button', { name: 'Assess Risk' }).click();
    expect((await answered).status()).toBe(200);
    // × 2 (beta-blocker) × 1.5 (age 80) × 1.5 (HR 55) = × 4.5 → 8.4 % MODERATE; 2 mg/kg × 70 kg = 140 mg
    await expect
      .poll(() =>
        widget
          .getByTestId('risk-band')
          .innerText()
          .catch(() => ''),
      )
      .toBe('MODERATE');
    expect(await widget.getByTestId('risk-percent').innerText()).toBe('8.4%');
    expect(await widget.getByTestId('advisor-dose').innerText()).toBe('140 mg (1.4 mL)');
    expect(await widget.getByTestId('advisor-offline').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('pinned by embed.json in Arabic: a chunk retried under fresh addresses is checked by the map', async () => {
    const chunk = Object.keys(react.elements['sgx-dose-calculator']!.chunks).find((url) => /arabic-pack/.test(url))!;
    expect(chunk).toMatch(new RegExp(`^/widgets/${embed.version.replaceAll('.', '\\.')}/react/chunks/`));
    const site = await serveFiles({
      '/': {
        body:
          '<!doctype html><html lang="ar"><meta charset="utf-8"><title>pinned</title>\n' +
          pinnedSnippet(embed, 'sgx-dose-calculator', product.url, 'react'),
        type: 'text/html; charset=utf-8',
      },
    });
    const { page, errors, close } = await openPage(browser, 'about:blank');
    // the first load of the Arabic chunk fails on the network (the element is English meanwhile); the first retry
    // (?retry=1) arrives altered on the way, and the browser refuses it; the second (?retry=2) is intact
    const first = `${product.url}${chunk}`;
    await page.route(first, (route) => route.abort('internetdisconnected'));
    await page.route(`${first}?retry=1`, async (route) => {
      const response = await route.fetch();
      const body = Buffer.concat([await response.body(), Buffer.from('\n// changed on the way\n')]);
      await route.fulfill({ status: 200, contentType: 'text/javascript', body });
    });
    await page.goto(site.url);
    const calculator = page.locator('sgx-dose-calculator');
    await calculator.getByRole('button', { name: 'Calculate Dose' }).waitFor({ timeout: 10_000 });
    expect(await renderedByReact(page, 'sgx-dose-calculator')).toBe(true);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(() => errors.join('\n')).toContain("Failed to find a valid digest in the 'integrity' attribute");
    expect(await calculator.getByRole('button', { name: 'Calculate Dose' }).count()).toBe(1);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await calculator.getByRole('button', { name: 'احسب الجرعة' }).waitFor({ timeout: 10_000 });
    await calculator.getByLabel(/^وزن الجسم/).fill('70');
    await calculator.locator('select[name="tofCount"]').selectOption('2');
    await calculator.getByRole('button', { name: 'احسب الجرعة' }).click();
    await expect.poll(() => calculator.locator('[part="result"]').innerText()).toContain('140 mg');
    // nothing else went wrong: the aborted load and the refused retry aside
    const expected = (error: string) => error.startsWith(`failed: ${first} `) || /integrity|retry=1/.test(error);
    expect(errors.filter((error) => !expected(error))).toEqual([]);
    await close();
    await site.close();
  });
});
