import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextTofHundredths } from '../host/tof.ts';
import { launchBrowser } from './browser.ts';
import { artifactsDir, startProductServer, waitForAllWidgets } from './support.ts';

// The full single page as `npm start` serves it (issue 5).
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let scratch: string;
beforeAll(async () => {
  product = await startProductServer();
  browser = await launchBrowser();
  scratch = await mkdtemp(path.join(tmpdir(), 'sgx-page-'));
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
  await rm(scratch, { recursive: true, force: true });
});

const SECTION_ORDER = [
  'hero',
  'moa',
  'advantage',
  'calculator',
  'bradycardia-advisor',
  'safety-calculator',
  'safety',
  'evidence',
  'resources',
  'faq',
  'contact',
];
const NAV_LABELS = [
  'MOA',
  'Competitive Edge',
  'Dose Calculator',
  'Bradycardia Advisor',
  'Safety Calculator',
  'Safety',
  'Clinical Evidence',
  'Resources',
  'FAQ',
  'Contact',
];

async function open(width = 1280, options: { reducedMotion?: boolean; clock?: boolean } = {}) {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    reducedMotion: options.reducedMotion ? 'reduce' : 'no-preference',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
      errors.push(`HTTP ${response.status()} ${response.url()}`);
  });
  if (options.clock) await page.clock.install();
  await page.goto(`${product.url}/`);
  await waitForAllWidgets(page);
  return { page, errors, close: () => context.close() };
}

/** How far a section's top is from the fixed bar's bottom (0 = just below it). */
const topOf = (page: Page, id: string) =>
  page.evaluate(
    (target) =>
      document.getElementById(target)!.getBoundingClientRect().top -
      document.querySelector('header')!.getBoundingClientRect().bottom,
    id,
  );

describe('the product page', () => {
  it('has the sections in the spec order, the ten nav labels, and no error', async () => {
    const { page, errors, close } = await open();
    expect(
      await page.evaluate(() =>
        // the page's sections (each hydrated apart, in a wrapper without a box: host/islands.tsx)
        [...document.querySelectorAll('main section[id]:not(section section), body footer[id]')].map(
          (element) => element.id,
        ),
      ),
    ).toEqual(SECTION_ORDER);
    expect(await page.locator('header nav a').allInnerTexts()).toEqual(NAV_LABELS);
    expect(await page.title()).toContain('Sugammadex');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
    expect(errors).toEqual([]);
    await close();
  });

  it('a nav choice smooth-scrolls its section to just below the fixed bar and marks it current', async () => {
    const { page, close } = await open();
    for (const [label, id] of [
      ['FAQ', 'faq'],
      ['Safety', 'safety'],
      ['MOA', 'moa'],
    ] as const) {
      await page.locator('header nav').getByRole('link', { name: label, exact: true }).click();
      await expect.poll(() => topOf(page, id), { timeout: 5000 }).toBeGreaterThanOrEqual(-2);
      await expect.poll(() => topOf(page, id), { timeout: 5000 }).toBeLessThanOrEqual(2);
      await expect
        .poll(() => page.locator('header nav a[aria-current="true"]').innerText(), { timeout: 5000 })
        .toBe(label);
    }
    // the short last section is current once the page is scrolled to its end
    await page.locator('header nav').getByRole('link', { name: 'Contact', exact: true }).click();
    await expect
      .poll(() => page.locator('header nav a[aria-current="true"]').innerText(), { timeout: 5000 })
      .toBe('Contact');
    await close();
  });

  it('on a phone the links sit in a menu that closes after a choice', async () => {
    const { page, close } = await open(360);
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await page.locator('#site-menu').isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#site-menu').isVisible()).toBe(true);
    await page.locator('#site-menu').getByRole('link', { name: 'Clinical Evidence' }).click();
    expect(await page.locator('#site-menu').isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => topOf(page, 'evidence'), { timeout: 5000 }).toBeLessThanOrEqual(2);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await close();
  });

  it('hero TOF ratio 0.40 → 0.90 by 0.01 every 50 ms, then restarts; 0.90 still for reduced motion', async () => {
    const { page, close } = await open(1280, { clock: true });
    await page.clock.pauseAt(new Date(Date.now() + 10_000)); // from here time moves only when told
    const value = () => page.getByTestId('tof-value').innerText();
    const seen: number[] = [];
    for (let tick = 0; tick < 60; tick += 1) {
      seen.push(Math.round(Number(await value()) * 100));
      await page.clock.runFor(50);
    }
    const steps = seen.slice(1).map((next, index) => [seen[index]!, next] as const);
    for (const [previous, next] of steps) {
      // each 50 ms: up by 0.01, or from 0.90 back to 0.40
      expect([previous, next]).toEqual(previous === 90 ? [90, 40] : [previous, previous + 1]);
    }
    expect(Math.min(...seen)).toBe(40);
    expect(Math.max(...seen)).toBe(90);
    expect(await page.getByText('Target: ≥ 0.9 for extubation readiness').count()).toBe(1);
    await close();

    const still = await open(1280, { reducedMotion: true });
    expect(await still.page.getByTestId('tof-value').innerText()).toBe('0.90');
    await still.page.waitForTimeout(200);
    expect(await still.page.getByTestId('tof-value').innerText()).toBe('0.90');
    await still.close();
  });

  it('the hero TOF figure pauses and plays again from its button, by keyboard and pointer (WCAG 2.2.2)', async () => {
    const { page, errors, close } = await open(1280, { clock: true });
    await page.clock.pauseAt(new Date(Date.now() + 10_000));
    const hero = page.locator('#hero');
    const value = () => hero.getByTestId('tof-value').innerText();
    /** The figure at `count` moments 50 ms apart (the animation's own step), time moving only here. */
    const sample = async (count: number) => {
      const seen: string[] = [];
      for (let tick = 0; tick < count; tick += 1) {
        seen.push(await value());
        await page.clock.runFor(50);
      }
      return seen;
    };
    expect(new Set(await sample(5)).size).toBe(5); // moving

    // Reached with Tab from the page's top, like any control; its name says what it does.
    const pause = hero.getByRole('button', { name: 'Pause animation', exact: true });
    expect(await pause.isVisible()).toBe(true);
    await page.locator('body').focus();
    let tabs = 0;
    while (!(await pause.evaluate((button) => button === document.activeElement)) && tabs < 40) {
      await page.keyboard.press('Tab');
      tabs += 1;
    }
    expect(await pause.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const play = hero.getByRole('button', { name: 'Play animation', exact: true });
    expect(await play.count()).toBe(1);
    expect(await hero.getByRole('button', { name: 'Pause animation', exact: true }).count()).toBe(0);
    const frozen = await sample(20); // a whole second
    expect(new Set(frozen).size).toBe(1);
    // still focused, Space plays it again: it moves on from where it stopped
    expect(await play.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    // (the first step may come a tick late: the interval starts in an effect, which the paused clock also delays)
    const from = Math.round(Number(frozen[0]) * 100);
    const resumed = (await sample(6)).map((shown) => Math.round(Number(shown) * 100));
    const moved = resumed.slice(resumed.findIndex((hundredths) => hundredths !== from));
    expect(moved.length).toBeGreaterThanOrEqual(4);
    let expected = from;
    for (const hundredths of moved) {
      expected = nextTofHundredths(expected);
      expect(hundredths).toBe(expected);
    }
    // the pointer works the same
    await hero.getByRole('button', { name: 'Pause animation', exact: true }).click();
    expect(new Set(await sample(10)).size).toBe(1);
    await hero.getByRole('button', { name: 'Play animation', exact: true }).click();
    expect(new Set(await sample(4)).size).toBe(4);
    expect(errors).toEqual([]);
    await close();
  });

  it('for reduced motion the TOF figure is still at 0.90, and the button offers to play it', async () => {
    const { page, close } = await open(1280, { reducedMotion: true, clock: true });
    const hero = page.locator('#hero');
    const play = hero.getByRole('button', { name: 'Play animation', exact: true });
    await play.waitFor();
    await page.clock.pauseAt(new Date(Date.now() + 10_000));
    expect(await hero.getByTestId('tof-value').innerText()).toBe('0.90');
    await page.clock.runFor(1000);
    expect(await hero.getByTestId('tof-value').innerText()).toBe('0.90');
    // the reader's own choice wins over the preference
    await play.click();
    await page.clock.runFor(100);
    expect(await hero.getByTestId('tof-value').innerText()).toBe('0.42');
    await hero.getByRole('button', { name: 'Pause animation', exact: true }).click();
    await page.clock.runFor(500);
    expect(await hero.getByTestId('tof-value').innerText()).toBe('0.42');
    await close();
  });

  it('hero buttons: to the calculator, and the HCP guide download', async () => {
    const { page, close } = await open();
    const guide = page.locator('#hero a[href="/hcp-guide.pdf"]');
    expect(await guide.getAttribute('download')).not.toBeNull();
    await page.locator('#hero').getByRole('button').first().click();
    await expect.poll(() => topOf(page, 'calculator'), { timeout: 5000 }).toBeLessThanOrEqual(2);
    await close();
  });

  it('safety panels open and close independently, by mouse and keyboard', async () => {
    const { page, close } = await open();
    const buttons = page.locator('#safety h3 button');
    // Below the fold the section is laid out only as the reader nears it (content-visibility: auto,
    // host/components/Section.tsx): its texts are drawn, and innerText has them, once it is scrolled to.
    await page.locator('#safety').scrollIntoViewIfNeeded();
    await expect.poll(() => buttons.first().innerText()).not.toBe('');
    expect(await buttons.allInnerTexts()).toEqual(
      ['Contraindications', 'Warnings & Precautions', 'Adverse Reactions', 'Drug Interactions'].map(
        (title) => `${title}\n+`,
      ),
    );
    await buttons.nth(0).click();
    await buttons.nth(2).focus();
    await page.keyboard.press('Enter');
    expect(await buttons.evaluateAll((all) => all.map((button) => button.getAttribute('aria-expanded')))).toEqual([
      'true',
      'false',
      'true',
      'false',
    ]);
    expect(await page.locator('#safety [role="region"]:visible').count()).toBe(2);
    await page.keyboard.press('Space');
    expect(await buttons.evaluateAll((all) => all.map((button) => button.getAttribute('aria-expanded')))).toEqual([
      'true',
      'false',
      'false',
      'false',
    ]);
    await close();
  });

  it('the FAQ holds twelve questions, one answer open at a time, and the open one closes', async () => {
    const { page, close } = await open();
    const buttons = page.locator('#faq h3 button');
    expect(await buttons.count()).toBe(12);
    await buttons.nth(0).click();
    await buttons.nth(3).click();
    expect(
      await buttons.evaluateAll(
        (all) => all.map((button) => button.getAttribute('aria-expanded')).filter((value) => value === 'true').length,
      ),
    ).toBe(1);
    expect(await buttons.nth(3).getAttribute('aria-expanded')).toBe('true');
    await buttons.nth(3).click();
    expect(await page.locator('#faq [role="region"]:visible').count()).toBe(0);
    await close();
  });

  it('evidence: 2 + 3 studies, DOI links in a new tab, no referrer; pack button to resources', async () => {
    const { page, close } = await open();
    const links = page.locator('#evidence a', { hasText: 'Open Study' });
    expect(await links.count()).toBe(5);
    for (const link of await links.all()) {
      expect(await link.getAttribute('href')).toMatch(/^https:\/\/doi\.org\/10\.\d{4,}\//);
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noreferrer');
    }
    await page.getByRole('button', { name: 'Download Evidence Pack PDF' }).click();
    await expect.poll(() => topOf(page, 'resources'), { timeout: 5000 }).toBeLessThanOrEqual(2);
    await close();
  });

  it('contact: the spec texts and the two buttons', async () => {
    const { page, close } = await open();
    const footer = page.locator('footer#contact');
    const text = await footer.innerText();
    for (const expected of ['Saudi Made', 'Last updated: August 5, 2025', '©']) expect(text).toContain(expected);
    expect(text.toLowerCase()).toContain('healthcare professionals only');
    expect(text.toLowerCase()).toContain('decision support only');
    await footer.getByRole('button', { name: 'Download Resources' }).click();
    await expect.poll(() => topOf(page, 'resources'), { timeout: 5000 }).toBeLessThanOrEqual(2);
    await footer.getByRole('button', { name: 'Calculate Dose Now' }).click();
    await expect.poll(() => topOf(page, 'calculator'), { timeout: 5000 }).toBeLessThanOrEqual(2);
    await close();
  });

  it('every resource and /hcp-guide.pdf download as real PDFs with their content', async () => {
    const { page, close } = await open();
    const hrefs = await page
      .locator('#resources a[download]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
    expect(hrefs).toHaveLength(7);
    for (const href of [...hrefs, '/hcp-guide.pdf']) {
      const response = await fetch(product.url + href);
      expect([href, response.status, response.headers.get('content-type')]).toEqual([href, 200, 'application/pdf']);
      const file = path.join(scratch, path.basename(href));
      await writeFile(file, Buffer.from(await response.arrayBuffer()));
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect([href, text.length > 1500]).toEqual([href, true]);
      // the contraception sheet is written for the patient (docs/clinical-reference.md §8), the others for clinicians
      if (href.endsWith('contraception-patient-counselling.pdf')) expect(text).toContain('Keep this sheet.');
      else expect(text).toMatch(/decision support only/i);
    }
    const guide = execFileSync('pdftotext', ['-layout', path.join(scratch, 'hcp-guide.pdf'), '-'], {
      encoding: 'utf8',
    });
    for (const fact of ['2 mg/kg', '4 mg/kg', '16 mg/kg', '140 mg', '295.28', '1033.48'])
      expect([fact, guide.includes(fact)]).toEqual([fact, true]);
    await close();
  });

  it('any other path is an HTTP 404 with the 404 page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${product.url}/dose-calculator`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('404 Page Not Found');
    expect(await page.getByText('Did you forget to add the page to the router?').count()).toBe(1);
    await context.close();
  });

  it('has no axe violations (WCAG 2.2 AA) at 1280 and 360 px, with panels open', async () => {
    for (const width of [1280, 360]) {
      const { page, close } = await open(width);
      await page.locator('#safety h3 button').first().click();
      await page.locator('#faq h3 button').first().click();
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
        .analyze();
      expect(
        results.violations.map(
          (violation) =>
            `${width}px ${violation.id}: ${violation.nodes
              .map((node) => node.target.join(' '))
              .slice(0, 3)
              .join(' | ')}`,
        ),
      ).toEqual([]);
      await close();
    }
  });

  it('no layout shift while the widgets load and the hero animates', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      (window as unknown as { __cls: number }).__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${product.url}/`);
    await page.waitForTimeout(2500);
    // the tools are defined as the reader nears them (host/elements.ts): reached by a script's scroll, whose
    // shifts count (no recent input), each must fill its reserved box without moving what follows
    await waitForAllWidgets(page);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBeLessThan(0.05);
    await context.close();
  });

  it('screenshots at 1280 and 360 px', async () => {
    for (const width of [1280, 360]) {
      const { page, close } = await open(width, { reducedMotion: true });
      await page.screenshot({ path: path.join(artifactsDir, `page-${width}.png`), fullPage: true });
      await close();
    }
  });
});
