import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLINICAL_RULES } from '../scripts/clinical-verification/rules.ts';
import { launchBrowser } from './browser.ts';
import { openPage, repoRoot, startProductServer, waitForAllWidgets } from './support.ts';

// Issue 29: the clinical verification report the build writes, as the server serves it, and the footer's link.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let scratch: string;
let version: string;
beforeAll(async () => {
  product = await startProductServer();
  browser = await launchBrowser();
  scratch = await mkdtemp(path.join(tmpdir(), 'sgx-verification-'));
  version = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')).version;
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('the clinical verification report', () => {
  it('is served at /clinical-verification.html as HTML, revalidated, compressed when asked', async () => {
    const response = await fetch(`${product.url}/clinical-verification.html`, { headers: { 'Accept-Encoding': 'br' } });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(await response.text()).toContain('<h1>Clinical verification report</h1>');
  });

  it('lists every rule with its value, source, code and passing tests, for this release', async () => {
    const { page, errors, close } = await openPage(browser, `${product.url}/clinical-verification.html`);
    expect(await page.title()).toBe(`Clinical verification report, release ${version}`);
    expect(await page.locator('[data-release]').innerText()).toBe(version);
    const builtAt = Date.parse((await page.locator('time').getAttribute('datetime'))!);
    expect(Date.now() - builtAt).toBeLessThan(24 * 3600_000); // built by this run's build
    const rows = page.locator('tbody tr[id]');
    expect(await rows.count()).toBe(CLINICAL_RULES.length);
    expect(await rows.evaluateAll((all) => all.map((row) => row.id))).toEqual(CLINICAL_RULES.map((rule) => rule.id));
    // each row: result "passed", and every test listed in it passed
    const results = await rows.evaluateAll((all) =>
      all.map((row) => [row.lastElementChild!.textContent, row.querySelectorAll('li').length, row.textContent]),
    );
    for (const [result, tests, text] of results) {
      expect(result).toBe('passed');
      expect(tests).toBeGreaterThan(0);
      expect((text as string).match(/\bpassed\b/g)!.length).toBe((tests as number) + 1);
    }
    expect(await page.getByText('FAILED').count()).toBe(0);
    // one row read in full: the child's atropine maximum on the emergency card
    const atropine = page.locator('tr[id="emergency.atropine-child-max"] td');
    expect(await atropine.allInnerTexts()).toEqual([
      expect.stringContaining('Atropine, child: never more than'),
      '0.5 mg',
      expect.stringContaining('0.02 mg/kg (min 0.1 mg, max 0.5 mg), may repeat once'),
      expect.stringMatching(/^ATROPINE_CHILD_MAX_MG\s+clinical\/emergency-constants\.ts$/),
      expect.stringContaining('child 30 kg: bradycardia atropine → 0.5 mg (capped)'),
      'passed',
    ]);
    expect(await page.locator('[data-summary]').innerText()).toMatch(
      new RegExp(`^${CLINICAL_RULES.length} rules and numbers, ${CLINICAL_RULES.length} verified`),
    );
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('comes as a PDF too, with the same rows', async () => {
    const response = await fetch(`${product.url}/clinical-verification.pdf`);
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const file = path.join(scratch, 'clinical-verification.pdf');
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    expect(text).toContain('Clinicalverificationreport');
    expect(text).toContain(`Release${version}`);
    for (const rule of CLINICAL_RULES) expect(text).toContain(rule.id.replace(/\s+/g, ''));
    expect(text).not.toContain('FAILED');
  });

  it('is linked from the footer as "Clinical verification", on / and on /ar/', async () => {
    const { page, errors, close } = await openPage(browser, `${product.url}/`);
    await waitForAllWidgets(page); // loaded: leaving the page now aborts nothing it was still fetching
    expect(errors).toEqual([]);
    const link = page.locator('footer#contact').getByRole('link', { name: 'Clinical verification', exact: true });
    expect(await link.getAttribute('href')).toBe('/clinical-verification.html');
    await Promise.all([page.waitForURL('**/clinical-verification.html'), link.click()]);
    expect(await page.locator('h1').innerText()).toBe('Clinical verification report');
    await close();

    const arabic = await openPage(browser, `${product.url}/ar/`);
    await waitForAllWidgets(arabic.page);
    const arabicLink = arabic.page.locator('footer#contact').getByRole('link', { name: 'التحقق السريري', exact: true });
    expect(await arabicLink.getAttribute('href')).toBe('/clinical-verification.html');
    expect(await arabicLink.getAttribute('hreflang')).toBe('en'); // the report is in English, and says so
    expect(await arabicLink.locator('xpath=..').innerText()).toContain('(بالإنجليزية)');
    expect(arabic.errors).toEqual([]);
    await arabic.close();
  });
});
