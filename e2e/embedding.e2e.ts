import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { openPage, serveExample, startProductServer, waitForWidget } from './support.ts';

// Browser tests 1, 2, 3, 8 and 10 of docs/engineering-notes.md#browser-tests-worth-having, against the real
// built bundles served by the real server, loaded from pages on other origins.
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

const ELEMENTS: Record<string, string[]> = {
  'sgx-dose-calculator': ['sgx-dose-calculator'],
  'sgx-bradycardia-advisor': ['sgx-bradycardia-advisor'],
  'sgx-roi-calculator': ['sgx-roi-calculator'],
  'sgx-access-portal': ['sgx-access-portal'],
  'sgx-widgets': ['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator', 'sgx-access-portal'],
};

/** Styles inside the dose calculator's shadow root that host CSS must not reach. */
async function insideStyles(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('sgx-dose-calculator')!.shadowRoot!;
    const pick = (selector: string) => {
      const style = getComputedStyle(root.querySelector(selector)!);
      return {
        fontSize: style.fontSize,
        lineHeight: style.lineHeight,
        letterSpacing: style.letterSpacing,
        color: style.color,
        fontFamily: style.fontFamily,
        textTransform: style.textTransform,
        textAlign: style.textAlign,
        borderTopStyle: style.borderTopStyle,
        backgroundColor: style.backgroundColor,
        margin: style.margin,
      };
    };
    return {
      heading: pick('h2'),
      input: pick('input[name="bodyWeight"]'),
      button: pick('button[type="submit"]'),
      label: pick('label'),
    };
  });
}

async function computeDose(page: Page, weight: string, tof: string) {
  const widget = page.locator('sgx-dose-calculator');
  await widget.getByLabel(/^Body weight/).fill(weight);
  await widget.getByLabel(/^TOF count/).selectOption(tof);
  await widget.getByRole('button', { name: 'Calculate Dose' }).click();
  return widget.locator('[part="result"]').innerText();
}

describe('built bundles', () => {
  it('contain no process.env and no development React', async () => {
    const { widgetsDir } = inject('e2eBuild');
    const files = (await readdir(widgetsDir, { recursive: true })).filter((file) => file.endsWith('.js'));
    expect(files).toEqual(expect.arrayContaining(Object.keys(ELEMENTS).map((name) => `${name}.js`)));
    for (const file of files) {
      const code = await readFile(path.join(widgetsDir, file), 'utf8');
      expect([file, code.includes('process.env')]).toEqual([file, false]);
      expect([file, code.includes('react-dom.development')]).toEqual([file, false]);
    }
  });

  it.each(Object.entries(ELEMENTS))(
    '%s.js alone on a blank page of another origin: defines its elements, no error',
    async (bundle, tags) => {
      const page = await serveFiles({
        '/': {
          body:
            `<!doctype html><title>blank</title>${tags.map((tag) => `<${tag}></${tag}>`).join('')}<script ` +
            `type="module" src="${product.url}/widgets/${bundle}.js"></script>`,
          type: 'text/html',
        },
      });
      const { page: tab, errors, close } = await openPage(browser, page.url);
      for (const tag of tags) await waitForWidget(tab, tag);
      expect(await tab.evaluate((names) => names.map((name) => Boolean(customElements.get(name))), tags)).toEqual(
        tags.map(() => true),
      );
      expect(errors).toEqual([]);
      await close();
      await page.close();
    },
  );
});

describe('the intranet page (another origin, hostile CSS)', () => {
  it('computes a dose, and host CSS changes nothing inside while the page keeps its own styles', async () => {
    const clean = await serveFiles({
      '/': {
        body:
          `<!doctype html><title>clean</title><sgx-dose-calculator></sgx-dose-calculator><script ` +
          `type="module" src="${product.url}/widgets/sgx-dose-calculator.js"></script>`,
        type: 'text/html',
      },
    });
    const intranet = await serveExample('intranet.html', product.url);
    const cleanTab = await openPage(browser, clean.url);
    const hostileTab = await openPage(browser, intranet.url);
    await waitForWidget(cleanTab.page, 'sgx-dose-calculator');
    await waitForWidget(hostileTab.page, 'sgx-dose-calculator');

    expect(await insideStyles(hostileTab.page)).toEqual(await insideStyles(cleanTab.page));
    const result = await computeDose(hostileTab.page, '70', '0');
    expect(result).toContain('4 mg/kg');
    expect(result).toContain('280 mg');
    expect(result).toContain('2 vials');
    expect(result).toContain('2.8 mL');
    expect(result).toContain('295.28 SAR');

    // the widget's CSS does not leak out: the page's own elements keep the page's styles
    // and the host element's own inherited properties are ours too
    expect(
      await hostileTab.page.evaluate(() => getComputedStyle(document.querySelector('sgx-dose-calculator')!).color),
    ).toBe('rgb(15, 23, 42)');
    const legacy = await hostileTab.page.evaluate(() => {
      const style = getComputedStyle(document.getElementById('legacy-note')!);
      return {
        color: style.color,
        letterSpacing: style.letterSpacing,
        textTransform: style.textTransform,
        fontWeight: style.fontWeight,
      };
    });
    expect(legacy).toEqual({
      color: 'rgb(255, 0, 0)',
      letterSpacing: '4px',
      textTransform: 'uppercase',
      fontWeight: '700',
    });
    expect(hostileTab.errors).toEqual([]);
    await cleanTab.close();
    await hostileTab.close();
    await clean.close();
    await intranet.close();
  });
});

describe('two bundles on one page', () => {
  it('the standalone and the all-in-one bundle together: no error, one definition, separate state', async () => {
    const page = await serveFiles({
      '/': {
        body: `<!doctype html><title>two</title>
<sgx-dose-calculator id="a"></sgx-dose-calculator>
<sgx-dose-calculator id="b"></sgx-dose-calculator>
<sgx-access-portal></sgx-access-portal>
<script type="module" src="${product.url}/widgets/sgx-dose-calculator.js"></script>
<script type="module" src="${product.url}/widgets/sgx-widgets.js"></script>`,
        type: 'text/html',
      },
    });
    const tab = await openPage(browser, page.url);
    await waitForWidget(tab.page, '#a');
    await waitForWidget(tab.page, '#b');
    await waitForWidget(tab.page, 'sgx-access-portal');
    await tab.page
      .locator('#a')
      .getByLabel(/^Body weight/)
      .fill('70');
    await tab.page
      .locator('#b')
      .getByLabel(/^Body weight/)
      .fill('55');
    expect(
      await tab.page
        .locator('#a')
        .getByLabel(/^Body weight/)
        .inputValue(),
    ).toBe('70');
    expect(
      await tab.page
        .locator('#b')
        .getByLabel(/^Body weight/)
        .inputValue(),
    ).toBe('55');
    expect(tab.errors).toEqual([]);
    expect(tab.warnings).toEqual([]); // one release: nothing to warn of
    await tab.close();
    await page.close();
  });
});

describe('two releases, or one bundle under two addresses', () => {
  it('two releases on one page: the first defines the elements, one console warning names both', async () => {
    const { widgetsDir } = inject('e2eBuild');
    const { version } = JSON.parse(await readFile(path.join(widgetsDir, 'embed.json'), 'utf8')) as { version: string };
    const code = await readFile(path.join(widgetsDir, version, 'sgx-dose-calculator.js'), 'utf8');
    expect(code.split(version)).toHaveLength(2); // the bundle's one mention of its release
    const site = await serveFiles({
      '/': {
        body:
          '<!doctype html><title>two releases</title><sgx-dose-calculator></sgx-dose-calculator>' +
          '<script type="module" src="/current/sgx-dose-calculator.js"></script>' +
          '<script type="module" src="/other/sgx-dose-calculator.js"></script>',
        type: 'text/html',
      },
      '/current/sgx-dose-calculator.js': { body: code, type: 'text/javascript' },
      '/other/sgx-dose-calculator.js': { body: code.replace(version, '99.0.0'), type: 'text/javascript' },
    });
    const tab = await openPage(browser, site.url);
    await waitForWidget(tab.page, 'sgx-dose-calculator');
    expect(await computeDose(tab.page, '70', '2')).toMatch(/Total dose\s+140 mg/);
    expect(tab.warnings).toEqual([
      `Two releases of the sgx elements on one page: ${version} (${site.url}/current/sgx-dose-calculator.js) ` +
        `and 99.0.0 (${site.url}/other/sgx-dose-calculator.js). Elements are defined by the first to load ` +
        `(${version}); the other is downloaded for nothing. Load one release per page.`,
    ]);
    expect(tab.errors).toEqual([]);
    await tab.close();
    await site.close();
  });

  it('loaded with a query string (a CMS adding ?ver=): Arabic arrives, one copy runs, no warning', async () => {
    const site = await serveFiles({
      '/': {
        body:
          '<!doctype html><html lang="ar"><title>ver</title><sgx-dose-calculator></sgx-dose-calculator>' +
          `<script type="module" src="${product.url}/widgets/sgx-dose-calculator.js?ver=6.4.2"></script>`,
        type: 'text/html',
      },
    });
    const tab = await openPage(browser, site.url);
    await tab.page.locator('sgx-dose-calculator').getByRole('button', { name: 'احسب الجرعة' }).waitFor();
    expect(tab.warnings).toEqual([]);
    expect(tab.errors).toEqual([]);
    await tab.close();
    await site.close();
  });
});

describe('a host page with a strict CSP', () => {
  it('styles apply with the nonce, and nothing violates the policy', async () => {
    const nonce = 'r4nd0mN0nce';
    const strict = await serveFilesWithCsp(nonce, product.url);
    const tab = await openPage(browser, strict.url);
    await waitForWidget(tab.page, 'sgx-dose-calculator');
    const background = await tab.page
      .locator('sgx-dose-calculator')
      .getByRole('button', { name: 'Calculate Dose' })
      .evaluate((button) => getComputedStyle(button).backgroundColor);
    expect(background).toBe('rgb(15, 118, 110)'); // --sgx-color-primary default #0f766e: Emotion's styles applied
    expect(await tab.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
    expect(tab.errors).toEqual([]);
    await tab.close();
    await strict.close();
  });

  it('without the nonce: one clear console message naming the fix, not a flood of blocked styles', async () => {
    const strict = await serveFilesWithCsp('r4nd0mN0nce', product.url, { giveNonce: false });
    const context = await browser.newContext();
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.goto(strict.url);
    await waitForWidget(page, 'sgx-dose-calculator');
    // The element still works (unstyled): a dose is computed.
    const widget = page.locator('sgx-dose-calculator');
    await widget.getByLabel(/^Body weight/).fill('70');
    await widget.getByLabel(/^TOF count/).selectOption('2');
    await widget.getByRole('button', { name: 'Calculate Dose' }).click();
    await expect.poll(() => widget.getByRole('region', { name: 'Result' }).innerText()).toMatch(/Total dose\s+140 mg/);
    const ours = messages.filter((text) => text.startsWith('<sgx-dose-calculator>'));
    expect(ours).toEqual([
      `<sgx-dose-calculator>: this page's Content-Security-Policy blocks the element's styles, so it shows unstyled. ` +
        (`Give the element the page's style nonce (<sgx-dose-calculator ` +
          `nonce="…">) or add <meta property="csp-nonce" nonce="…"> to the page, `) +
        `with style-src 'nonce-…' in the policy (or allow style-src 'unsafe-inline').`,
    ]);
    // The browser reports the one probe it refused, not one violation per style rule.
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    expect(violations.length).toBeLessThanOrEqual(2);
    await context.close();
    await strict.close();
  });
});

/** A page served with `Content-Security-Policy: style-src 'nonce-…'; script-src 'nonce-…' <product>`. */
async function serveFilesWithCsp(nonce: string, productOrigin: string, { giveNonce = true } = {}) {
  const { createServer } = await import('node:http');
  const meta = giveNonce ? `<meta property="csp-nonce" nonce="${nonce}">` : '';
  const html = `<!doctype html><meta charset="utf-8">${meta}<title>csp</title>
<script nonce="${nonce}">
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
</script>
<sgx-dose-calculator></sgx-dose-calculator>
<script type="module" nonce="${nonce}" src="${productOrigin}/widgets/sgx-dose-calculator.js"></script>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy':
        `default-src 'none'; script-src 'nonce-${nonce}' ${productOrigin}; style-src ` +
        `'nonce-${nonce}'; connect-src ${productOrigin}; img-src data:`,
    });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
