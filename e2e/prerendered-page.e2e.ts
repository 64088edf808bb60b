import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { RESERVED_HEIGHTS } from '../host/components/reserved-heights.ts';
import type { Lang } from '../host/content/types.ts';
import { CONTENT_EN } from '../host/content/en.ts';
import { openPage, startProductServer, waitForAllWidgets, waitForWidget } from './support.ts';

// The page served at / is prerendered at build time (scripts/build-host.mjs): its text is in the
// HTML before any script runs, React hydrates it without a mismatch, and the elements, defined
// after hydration, fill boxes already sized for them.
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

/** The text a reader sees in an HTML document's body: no tags, styles or scripts, spaces collapsed. */
function visibleText(html: string): string {
  const body = html.slice(html.indexOf('<body'));
  return body
    .replace(/<(style|script|noscript)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
}

const MOBILE = { width: 412, height: 823 };

describe('the prerendered product page', () => {
  it('holds every section’s text, the navigation and the footer in the HTML itself', async () => {
    const text = visibleText(await (await fetch(`${product.url}/`)).text());
    expect(text.length).toBeGreaterThanOrEqual(3000);
    for (const expected of [
      'Fast, predictable reversal of rocuronium and vecuronium block', // hero
      'Calculate Dose',
      'MOA', // navigation
      'Competitive Edge',
      'Frequently Asked Questions',
      'Which body weight do I use, including in obese patients?', // an FAQ question…
      'Actual body weight, obese patients included', // …and its answer
      'Clinical Evidence',
      'For healthcare professionals only.', // footer
      '147.64 SAR per vial',
    ]) {
      expect([expected, text.includes(expected)]).toEqual([expected, true]);
    }
  });

  it('is readable with JavaScript off: styled, with the hero and the FAQ', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: MOBILE });
    const page = await context.newPage();
    await page.goto(`${product.url}/`);
    const hero = page.getByRole('heading', { level: 1 });
    expect(await hero.innerText()).toBe('Fast, predictable reversal of rocuronium and vecuronium block');
    // Emotion's styles came with the markup: the hero heading has no browser margin, the nav bar is fixed.
    expect(await hero.evaluate((element) => getComputedStyle(element).marginTop)).toBe('0px');
    expect(await page.locator('header').evaluate((element) => getComputedStyle(element).position)).toBe('fixed');
    // The FAQ, far below the fold, is rendered only as the reader nears it (host/components/Section.tsx): then
    // its text is there to read.
    const faq = page.locator('#faq');
    const rendered = () =>
      faq.locator('h2').evaluate((element) => element.checkVisibility({ contentVisibilityAuto: true }));
    expect(await faq.evaluate((element) => getComputedStyle(element).contentVisibility)).toBe('auto');
    expect(await rendered()).toBe(false);
    await faq.scrollIntoViewIfNeeded();
    await expect.poll(rendered).toBe(true);
    expect(await faq.innerText()).toContain('Which body weight do I use');
    // The bar's Emergency button, which needs a script to open the card, is not offered.
    expect(await page.locator('header [data-emergency]').isVisible()).toBe(false);
    // Each tool's box says what it is and why it is empty.
    for (const [tag, title] of [
      ['sgx-dose-calculator', 'Dose Calculator'],
      ['sgx-bradycardia-advisor', 'Bradycardia Advisor'],
      ['sgx-roi-calculator', 'Safety Calculator'],
    ] as const) {
      const box = page.locator(tag);
      expect(await box.getByRole('heading', { level: 2 }).innerText()).toBe(title);
      expect(await box.innerText()).toContain(CONTENT_EN.chrome.toolNeedsScript);
    }
    await context.close();
  });

  it('hydrates with no error or warning, then defines the elements; the text does not change', async () => {
    const { page, errors, close } = await openPage(browser, `${product.url}/`, { viewport: MOBILE });
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await waitForWidget(page, 'sgx-dose-calculator');
    await waitForWidget(page, 'sgx-access-portal');
    // The page's text once hydrated is the text served, word for word (the animated TOF figure aside).
    const servedHtml = await (await fetch(`${product.url}/`)).text();
    const [served, shown] = await page.evaluate((html) => {
      const text = (root: ParentNode) => {
        root.querySelector('[data-testid="tof-value"]')?.remove();
        // <noscript> is for scripts off: hydration empties it, and it never shows with scripts on.
        for (const hidden of root.querySelectorAll('style, noscript')) hidden.remove();
        return (root.querySelector('#root')?.textContent ?? '').replace(/\s+/g, ' ').trim();
      };
      const live = document.cloneNode(true) as Document;
      return [text(new DOMParser().parseFromString(html, 'text/html')), text(live)];
    }, servedHtml);
    expect(shown.length).toBeGreaterThan(3000);
    expect(shown).toBe(served);
    expect(shown).toContain('Actual body weight, obese patients included');
    // Emotion moved the served styles into <head>; the body holds none.
    expect(await page.evaluate(() => document.body.querySelectorAll('style').length)).toBe(0);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    await close();
  });

  it('hydration adopts the served elements: none is replaced or left over', async () => {
    const context = await browser.newContext({ viewport: MOBILE });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // every element the parser puts inside #root, recorded before any script of the page runs
    await page.addInitScript(() => {
      const served: Element[] = [];
      (window as unknown as { sgxServed: Element[] }).sgxServed = served;
      const record = (records: MutationRecord[]) => {
        for (const { addedNodes } of records)
          for (const node of addedNodes)
            if (node instanceof Element && node.closest('#root')) served.push(node, ...node.querySelectorAll('*'));
      };
      const observer = new MutationObserver(record);
      observer.observe(document, { childList: true, subtree: true });
      // parsing is done before the module scripts run: stop there
      document.addEventListener('readystatechange', () => {
        if (document.readyState !== 'interactive') return;
        record(observer.takeRecords());
        observer.disconnect();
      });
    });
    await page.goto(`${product.url}/`);
    await waitForWidget(page, 'sgx-access-portal');
    const { served, detached, unserved } = await page.evaluate(() => {
      const list = [...new Set((window as unknown as { sgxServed: Element[] }).sgxServed)];
      const kept = new Set(list);
      return {
        served: list.length,
        // (Emotion moves the served <style> elements into <head>: still the same elements)
        detached: list.filter((element) => !element.isConnected).map((element) => element.outerHTML.slice(0, 80)),
        // what the page added to #root after the markup arrived, other than the elements' own content
        unserved: [...document.querySelectorAll('#root *')]
          .filter((element) => !kept.has(element))
          .map((element) => element.outerHTML.slice(0, 80)),
      };
    });
    expect(served).toBeGreaterThan(300);
    expect(detached).toEqual([]);
    expect(unserved).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('defines a tool only as the reader nears it, and every tool at the first Tab', async () => {
    const { page, errors, close } = await openPage(browser, `${product.url}/`, { viewport: MOBILE });
    const defined = () =>
      page.evaluate(() =>
        ['sgx-access-portal', 'sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator'].map((tag) =>
          Boolean(customElements.get(tag) && document.querySelector(tag)!.shadowRoot?.childElementCount),
        ),
      );
    await waitForWidget(page, 'sgx-access-portal'); // in the fixed bar: in view from the start
    await page.waitForTimeout(1000);
    expect(await defined()).toEqual([true, false, false, false]);
    // Until then, a reader moving by heading finds each tool by its name, and no scripts-off note shows.
    const fallbackHeading = page.getByRole('heading', { name: 'Safety Calculator', exact: true });
    expect(await fallbackHeading.count()).toBe(1);
    expect(await page.getByText(CONTENT_EN.chrome.toolNeedsScript).count()).toBe(0);
    // scrolling to the calculator defines it and the advisor (within a screen below), not the ROI calculator
    await page.locator('sgx-dose-calculator').scrollIntoViewIfNeeded();
    await expect.poll(defined).toEqual([true, true, true, false]);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.keyboard.press('Tab');
    await expect.poll(defined).toEqual([true, true, true, true]);
    // Defined, the element shows its own heading; the one in its light DOM is no longer rendered.
    expect(await fallbackHeading.count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'ROI & Safety Calculator', exact: true }).count()).toBe(1);
    expect(errors).toEqual([]);
    await close();
  });

  it('each element’s box is reserved at the height it renders at, on phones, a tablet and a desktop', async () => {
    // The page defines each element as the reader nears it (host/elements.ts): until then its box holds
    // the height host/components/ToolSections.tsx reserves, so nothing below moves when it upgrades.
    // every row of the table, at the width it was measured at, and the widths most phones have
    const widths = (lang: Lang, more: number[]) =>
      [...new Set([...RESERVED_HEIGHTS[lang].map((row) => row.measuredAt), ...more])].sort((a, b) => a - b);
    const pages = [
      ...widths('en', [360, 390, 412, 768, 1280]).map((width) => ['/', width] as const),
      ...widths('ar', [390, 1280]).map((width) => ['/ar/', width] as const),
    ];
    for (const [address, width] of pages) {
      const { page, errors, close } = await openPage(browser, `${product.url}${address}`, {
        viewport: { width, height: 900 },
        fontsCached: true,
      });
      for (const tag of ['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator']) {
        await waitForWidget(page, tag);
        const [reserved, rendered] = await page.evaluate((name) => {
          // the box the page reserves: an undefined element with the same class, beside the rendered one
          const element = document.querySelector(name)!;
          const probe = document.createElement('sgx-reserved-probe');
          probe.className = element.className;
          element.after(probe);
          const heights: [number, number] = [
            probe.getBoundingClientRect().height,
            element.getBoundingClientRect().height,
          ];
          probe.remove();
          return heights;
        }, tag);
        const off = Math.abs(rendered - reserved) / rendered;
        expect([address, width, tag, off < 0.08]).toEqual([address, width, tag, true]);
      }
      expect(errors).toEqual([]);
      await close();
    }
  });

  it('lays out every text, the elements’ too, in the page’s own fonts, whatever fonts the machine has', async () => {
    // host/fonts.ts: the reserved heights hold on any machine only if no installed font sizes any text. Chromium's
    // DevTools protocol says which fonts drew each text node; a machine font may draw only the invisible format
    // characters (bidi isolates, word joiners), which none of the page's fonts carries and which take no room.
    for (const [address, width] of [
      ['/', 1280],
      ['/', 360],
      ['/ar/', 1280],
      ['/ar/', 360],
    ] as const) {
      const { page, errors, close } = await openPage(browser, `${product.url}${address}`, {
        viewport: { width, height: 900 },
        fontsCached: true,
      });
      await waitForAllWidgets(page);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
      type Node = (typeof root)['children'] extends (infer N)[] | undefined ? N : never;
      const texts: Node[] = [];
      const walk = (node: Node) => {
        if (['STYLE', 'SCRIPT', 'NOSCRIPT', 'HEAD', 'TEMPLATE'].includes(node.nodeName)) return;
        if (node.nodeType === 3 && node.nodeValue.trim()) texts.push(node);
        for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) walk(child);
      };
      walk(root);
      const byMachineFonts: string[] = [];
      let ownGlyphs = 0;
      for (const text of texts) {
        const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId: text.nodeId });
        ownGlyphs += fonts.filter((font) => font.isCustomFont).reduce((sum, font) => sum + font.glyphCount, 0);
        const machine = fonts.filter((font) => !font.isCustomFont).reduce((sum, font) => sum + font.glyphCount, 0);
        const invisible = [...text.nodeValue].filter((c) => /[\u200b-\u200f\u2060-\u206f\ufeff]/u.test(c)).length;
        // The one exception: "العربية", the English page's link to /ar/, which does not download the Arabic font
        // for one word in the fixed-height bar (its font moves nothing on the page).
        if (address === '/' && text.nodeValue.trim() === CONTENT_EN.chrome.languageSwitch.label) continue;
        if (machine > invisible) byMachineFonts.push(`${fonts.map((f) => f.familyName)}: ${text.nodeValue.trim()}`);
      }
      expect([address, width, byMachineFonts]).toEqual([address, width, []]);
      expect(ownGlyphs).toBeGreaterThan(3000);
      expect(errors).toEqual([]);
      await close();
    }
  });

  it('nothing shifts while the script runs and the elements upgrade (CLS under 0.02)', async () => {
    const { page, errors, close } = await openPage(browser, `${product.url}/`, { viewport: MOBILE });
    await page.evaluate(() => {
      (window as unknown as { sgxShift: number }).sgxShift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!entry.hadRecentInput) (window as unknown as { sgxShift: number }).sgxShift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await waitForWidget(page, 'sgx-dose-calculator');
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { sgxShift: number }).sgxShift)).toBeLessThan(0.02);
    expect(errors).toEqual([]);
    await close();
  });
});
