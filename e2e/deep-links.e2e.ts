import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { PAGE_WIDGETS, openPage, startProductServer } from './support.ts';

// Links to a section of the product page (`/#calculator`, `/#faq`): the page is rendered in the
// browser, so the section does not exist when the browser looks for the fragment, and the custom
// elements above it change height after React has rendered.
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

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** So tall that the FAQ cannot reach the top: the page ends first (the "at end → Contact" case). */
const TALL = { width: 1280, height: 1700 };

/**
 * Waits until the elements within a screen of the viewport, which the page defines as the reader nears them
 * (host/elements.ts), have rendered into their shadow roots; the access control in the fixed bar always
 * is, and is defined after the whole page is hydrated. Nothing is scrolled: the landing is what is tested.
 */
const widgetsRendered = (page: Page) =>
  page.waitForFunction(
    (tags) =>
      tags.every((tag) => {
        const element = document.querySelector(tag)!;
        const { top, bottom } = element.getBoundingClientRect();
        const near = bottom >= -innerHeight && top <= 2 * innerHeight;
        return !near || Boolean(customElements.get(tag) && element.shadowRoot?.childElementCount);
      }),
    PAGE_WIDGETS,
    { timeout: 10_000 },
  );

async function openAt(hash: string, viewport = DESKTOP) {
  const opened = await openPage(browser, `${product.url}/${hash}`, { viewport });
  await widgetsRendered(opened.page);
  return opened;
}

/** Like openAt, with `prepare` run on the page before it loads (init scripts, routes). */
async function openPrepared(hash: string, viewport: typeof DESKTOP, prepare: (page: Page) => Promise<unknown>) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await prepare(page);
  await page.goto(`${product.url}/${hash}`);
  await widgetsRendered(page);
  return { page, errors, close: () => context.close() };
}

/**
 * Like openAt, with the browser's scroll anchoring off (as in browsers without `overflow-anchor`):
 * then only the page itself keeps a section in place while the heights above it change.
 */
async function openWithoutScrollAnchoring(hash: string, viewport = DESKTOP) {
  const opened = await openPrepared(hash, viewport, (loading) =>
    loading.addInitScript(() => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync('html, body { overflow-anchor: none; }');
      document.adoptedStyleSheets = [sheet];
    }),
  );
  expect(await opened.page.evaluate(() => getComputedStyle(document.documentElement).overflowAnchor)).toBe('none');
  return opened;
}

/** How far a section's top is from the fixed bar's bottom (0 = just below it). */
const topOf = (page: Page, id: string) =>
  page.evaluate(
    (target) =>
      document.getElementById(target)!.getBoundingClientRect().top -
      document.querySelector('header')!.getBoundingClientRect().bottom,
    id,
  );

/** The targets of the nav links marked current (hidden in the menu on a phone, but still marked). */
const currentNav = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('header nav a[aria-current="true"]')].map((link) => link.getAttribute('href')),
  );

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);
const atEnd = (page: Page) =>
  page.evaluate(() => Math.abs(window.innerHeight + window.scrollY - document.documentElement.scrollHeight) <= 2);

/** Waits until the section sits just below the bar, then checks that it stays there. */
async function expectLanded(page: Page, id: string) {
  await expect.poll(() => topOf(page, id), { timeout: 5000 }).toBeGreaterThanOrEqual(-3);
  await expect.poll(() => topOf(page, id), { timeout: 5000 }).toBeLessThanOrEqual(3);
  await page.waitForTimeout(800);
  const settled = await topOf(page, id);
  expect(Math.abs(settled), `#${id} is ${settled} px from the bar after settling`).toBeLessThanOrEqual(3);
}

/** Adds height above a section, as a late-rendering element would. */
const growAbove = (page: Page, px: number) =>
  page.evaluate((height) => {
    const spacer = document.createElement('div');
    spacer.style.height = `${height}px`;
    document.getElementById('moa')!.prepend(spacer);
  }, px);

describe('links to a section of the product page', () => {
  it('/#calculator lands with the calculator just below the fixed bar, marked current and focused', async () => {
    const { page, errors, close } = await openAt('#calculator');
    await expectLanded(page, 'calculator');
    expect(await currentNav(page)).toEqual(['#calculator']);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('calculator');
    expect(errors).toEqual([]);
    await close();
  });

  it('/#faq lands on the FAQ and the nav marks FAQ', async () => {
    const { page, errors, close } = await openAt('#faq');
    await expectLanded(page, 'faq');
    expect(await currentNav(page)).toEqual(['#faq']);
    expect(errors).toEqual([]);
    await close();
  });

  it('/#faq when the FAQ cannot reach the top: page at its end, FAQ marked (not Contact) until a scroll', async () => {
    const { page, errors, close } = await openAt('#faq', TALL);
    await expect.poll(() => atEnd(page), { timeout: 5000 }).toBe(true);
    expect(await topOf(page, 'faq')).toBeGreaterThan(3); // it cannot reach the bar
    await page.waitForTimeout(500);
    expect(await currentNav(page)).toEqual(['#faq']);
    // the user scrolls: the current section follows the scroll position again
    await page.mouse.move(640, 800);
    await page.mouse.wheel(0, -200);
    await expect.poll(() => atEnd(page), { timeout: 5000 }).toBe(false);
    await page.mouse.wheel(0, 200);
    await expect.poll(() => atEnd(page), { timeout: 5000 }).toBe(true);
    await expect.poll(() => currentNav(page), { timeout: 5000 }).toEqual(['#contact']);
    expect(errors).toEqual([]);
    await close();
  });

  it('a nav choice of a section that cannot reach the top marks that section', async () => {
    const { page, close } = await openAt('', TALL);
    await page.locator('header nav').getByRole('link', { name: 'FAQ', exact: true }).click();
    await expect.poll(() => atEnd(page), { timeout: 5000 }).toBe(true);
    await page.waitForTimeout(300);
    expect(await currentNav(page)).toEqual(['#faq']);
    await close();
  });

  it('a nav choice past tools not yet defined lands on its section once they render on the way', async () => {
    // the tools between the top and Safety are defined during the smooth scroll (host/elements.ts) and change
    // the heights above it; the page keeps the section in place once the scroll ends (host/scroll.ts)
    const { page, errors, close } = await openAt('');
    expect(await page.evaluate(() => customElements.get('sgx-roi-calculator'))).toBeUndefined();
    await page.locator('header nav').getByRole('link', { name: 'Safety', exact: true }).click();
    await expectLanded(page, 'safety');
    expect(await page.evaluate(() => Boolean(customElements.get('sgx-roi-calculator')))).toBe(true);
    expect(await currentNav(page)).toEqual(['#safety']);
    expect(errors).toEqual([]);
    await close();
  });

  it('on a phone (390 × 844) /#calculator lands too', async () => {
    const { page, errors, close } = await openAt('#calculator', PHONE);
    await expectLanded(page, 'calculator');
    expect(await currentNav(page)).toEqual(['#calculator']);
    expect(errors).toEqual([]);
    await close();
  });

  it('keeps the section in place while the layout above changes (also without scroll anchoring)', async () => {
    for (const open of [openAt, openWithoutScrollAnchoring]) {
      const { page, errors, close } = await open('#faq');
      await expectLanded(page, 'faq');
      await growAbove(page, 600);
      await expect.poll(() => topOf(page, 'faq'), { timeout: 1000 }).toBeLessThanOrEqual(3);
      expect(await topOf(page, 'faq')).toBeGreaterThanOrEqual(-3);
      expect(errors).toEqual([]);
      await close();
    }
  });

  it('without scroll anchoring, /#calculator and /#faq still land as the elements above them render', async () => {
    for (const id of ['calculator', 'faq']) {
      const { page, errors, close } = await openWithoutScrollAnchoring(`#${id}`);
      await expectLanded(page, id);
      expect(await currentNav(page)).toEqual([`#${id}`]);
      expect(errors).toEqual([]);
      await close();
    }
  });

  it('stops keeping the section in place once the user scrolls (never fights the user)', async () => {
    const { page, close } = await openAt('#calculator');
    await expectLanded(page, 'calculator');
    const landedAt = await scrollY(page);
    await page.mouse.move(640, 500);
    await page.mouse.wheel(0, -400);
    await expect.poll(() => scrollY(page), { timeout: 5000 }).toBeLessThan(landedAt - 300);
    const before = await topOf(page, 'calculator');
    expect(before).toBeGreaterThan(300);
    await growAbove(page, 600);
    await page.waitForTimeout(500);
    // the content above grew (off screen: the browser's scroll anchoring keeps what the user sees),
    // and the calculator was not pulled back under the bar
    expect(await topOf(page, 'calculator')).toBeGreaterThanOrEqual(before - 3);
    // and the nav follows the scroll position again: the calculator is below the bar, not current
    await expect.poll(() => currentNav(page), { timeout: 5000 }).not.toEqual(['#calculator']);
    await close();
  });

  it('a hash change (and back) lands on the section it names and updates the nav', async () => {
    const { page, errors, close } = await openAt('#calculator');
    await expectLanded(page, 'calculator');
    await page.evaluate(() => {
      location.hash = '#bradycardia-advisor';
    });
    await expectLanded(page, 'bradycardia-advisor');
    expect(await currentNav(page)).toEqual(['#bradycardia-advisor']);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bradycardia-advisor');
    await page.evaluate(() => {
      location.hash = '#faq';
    });
    await expectLanded(page, 'faq');
    expect(await currentNav(page)).toEqual(['#faq']);
    await page.goBack();
    expect(new URL(page.url()).hash).toBe('#bradycardia-advisor');
    await expectLanded(page, 'bradycardia-advisor');
    expect(await currentNav(page)).toEqual(['#bradycardia-advisor']);
    expect(errors).toEqual([]);
    await close();
  });

  it('a hash change lands too, moves focus, and marks a section that cannot reach the top', async () => {
    const { page, close } = await openAt('');
    await page.evaluate(() => {
      location.hash = '#bradycardia-advisor';
    });
    await expectLanded(page, 'bradycardia-advisor');
    expect(await currentNav(page)).toEqual(['#bradycardia-advisor']);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bradycardia-advisor');
    await close();

    const tall = await openAt('', TALL);
    await tall.page.evaluate(() => {
      location.hash = '#faq';
    });
    await expect.poll(() => atEnd(tall.page), { timeout: 5000 }).toBe(true);
    await tall.page.waitForTimeout(300);
    expect(await currentNav(tall.page)).toEqual(['#faq']);
    await tall.close();
  });

  it('a reload with a hash lands on the section the URL names again (also after the user scrolled away)', async () => {
    const { page, errors, close } = await openAt('#safety');
    await expectLanded(page, 'safety');
    await page.reload();
    await widgetsRendered(page);
    await expectLanded(page, 'safety');
    await page.mouse.move(640, 500);
    await page.mouse.wheel(0, 2500);
    await expect.poll(() => topOf(page, 'safety'), { timeout: 5000 }).toBeLessThan(-2000);
    await page.reload();
    await widgetsRendered(page);
    await expectLanded(page, 'safety');
    expect(await currentNav(page)).toEqual(['#safety']);
    expect(errors).toEqual([]);
    await close();
  });

  it('an id that is not a nav section (the main content) is reached, below the bar', async () => {
    const { page, errors, close } = await openAt('#faq-heading');
    await expect.poll(() => topOf(page, 'faq-heading'), { timeout: 5000 }).toBeGreaterThanOrEqual(-3);
    await expect.poll(() => topOf(page, 'faq-heading'), { timeout: 5000 }).toBeLessThanOrEqual(3);
    expect(await currentNav(page)).toEqual(['#faq']);
    expect(errors).toEqual([]);
    await close();
  });

  it('an unknown or malformed hash leaves the page at the top with no error', async () => {
    for (const hash of ['#no-such-section', '#%E0%A4%A', '#']) {
      const { page, errors, close } = await openAt(hash);
      await page.waitForTimeout(800);
      expect([hash, await scrollY(page)]).toEqual([hash, 0]);
      expect([hash, await currentNav(page)]).toEqual([hash, []]);
      await page.evaluate(() => {
        location.hash = '#still-not-there';
      });
      await page.waitForTimeout(300);
      expect([hash, await scrollY(page)]).toEqual([hash, 0]);
      expect([hash, errors]).toEqual([hash, []]);
      await close();
    }
  });

  it('lands on the section in the prerendered HTML, before and after the elements upgrade', async () => {
    // The served page holds the sections already (scripts/build-host.mjs): the browser's own jump to
    // the hash and the page's keep-in-place work on the same markup.
    const html = await (await fetch(`${product.url}/`)).text();
    expect(html).toContain('id="calculator"');
    expect(html).toContain('id="faq"');

    for (const [hash, viewport] of [
      ['#calculator', DESKTOP],
      ['#faq', TALL],
    ] as const) {
      const { page, errors, close } = await openAt(hash, viewport);
      if (hash === '#calculator') await expectLanded(page, 'calculator');
      else await expect.poll(() => atEnd(page), { timeout: 5000 }).toBe(true);
      await page.waitForTimeout(300);
      expect([hash, await currentNav(page)]).toEqual([hash, [hash]]);
      expect(errors).toEqual([]);
      await close();
    }
  });
});
