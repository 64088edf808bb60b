import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesAr } from '../widgets/shared/lang/messages/ar/index.ts';
import { messagesEn, type Messages } from '../widgets/shared/lang/messages/index.ts';
import { launchBrowser } from './browser.ts';
import { serveFiles, type StaticFiles } from './static-server.ts';
import { openPage, startProductServer, waitForWidget } from './support.ts';

// Issue 30, items 9 and 10: each element fits a column of 200-240 px, and axe finds nothing serious or critical
// (nor a list, heading-order or aria-allowed-role problem) in any state an element shows: empty, errors, each
// result, toasts, dialogs, the emergency card; in English and in Arabic.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let site: Awaited<ReturnType<typeof serveFiles>>;
const files: StaticFiles = {};
beforeAll(async () => {
  site = await serveFiles(files);
  product = await startProductServer({ ALLOWED_ORIGINS: site.url });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await product?.close();
});

const TAGS = ['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator', 'sgx-access-portal'] as const;

/** A page of its own on the test's origin, with the all-in-one bundle. */
function pageAt(name: string, body: string, lang = 'en'): string {
  files[`/${name}`] = {
    body:
      `<!doctype html><html lang="${lang}"><meta charset="utf-8"><meta name="viewport" ` +
      `content="width=device-width"><title>${name}</title><style>body{margin:0}</style>` +
      `<main>${body}</main><script type="module" src="${product.url}/widgets/sgx-widgets.js"></script>`,
    type: 'text/html; charset=utf-8',
  };
  return `${site.url}/${name}`;
}

/** Rules named by the issue, reported whatever axe's impact for them. */
const ALWAYS = new Set(['list', 'listitem', 'heading-order', 'aria-allowed-role']);
async function axeFindings(page: Page, state: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical' || ALWAYS.has(violation.id),
    )
    .map(
      (violation) =>
        `${state}: ${violation.id} (${violation.impact}) ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}

const toast = (widget: Locator) => widget.getByRole('region', { name: /^(Notifications|الإشعارات)$/ }).last();
const emergencyCard = (page: Page) => page.locator('[data-sgx-emergency-card]').getByTestId('emergency-card');

describe.each([
  ['en', messagesEn],
  ['ar', messagesAr],
] as [string, Messages][])('axe on every state of every element (%s)', (lang, m) => {
  it('the dose calculator: empty, errors and toast, each outcome, notices, the CrCl helper, the card', async () => {
    const url = pageAt(
      `dose-${lang}`,
      `<sgx-dose-calculator id="calc" emergency weight="70"></sgx-dose-calculator>
<sgx-dose-calculator id="unknown" age-group="bogus"></sgx-dose-calculator>`,
      lang,
    );
    const { page, close } = await openPage(browser, url);
    await waitForWidget(page, '#calc');
    await waitForWidget(page, '#unknown');
    const widget = page.locator('#calc');
    const t = m.doseCalculator;
    const findings: string[] = [];
    const calculate = () => widget.getByRole('button', { name: t.calculate }).click();
    findings.push(...(await axeFindings(page, 'empty, unknown age group')));

    await widget.locator('input[name="bodyWeight"]').fill('');
    await calculate();
    await expect.poll(() => toast(widget).innerText()).toContain(t.invalidInputTitle);
    findings.push(...(await axeFindings(page, 'errors and toast')));

    await widget.locator('input[name="bodyWeight"]').fill('70');
    await widget.locator('select[name="tofCount"]').selectOption('2');
    await calculate();
    for (const [state, change] of [
      ['dose', async () => {}],
      ['not indicated', () => widget.locator('select[name="nmbaType"]').selectOption('other')],
      ['contraindicated', () => widget.locator('input[name="dialysis"]').check()],
      ['not established', () => widget.locator('select[name="ageGroup"]').selectOption('infant')],
      ['unable to calculate', () => widget.locator('select[name="tofCount"]').selectOption('')],
    ] as const) {
      await widget.locator('select[name="nmbaType"]').selectOption('rocuronium');
      await widget.locator('input[name="dialysis"]').uncheck();
      await widget.locator('select[name="ageGroup"]').selectOption('adult');
      await widget.locator('select[name="tofCount"]').selectOption('2');
      await change();
      await calculate();
      const kind = state.replaceAll(' ', '_');
      await expect.poll(() => widget.locator('[part="result"]').getAttribute('data-outcome')).toBe(kind);
      findings.push(...(await axeFindings(page, state)));
    }

    await page.evaluate(() => document.getElementById('calc')!.setAttribute('weight', '80'));
    await expect.poll(() => widget.getByTestId('dose-notice').count()).toBe(1);
    findings.push(...(await axeFindings(page, 'preset notice')));

    await widget.getByRole('button', { name: new RegExp(t.crclHelperToggle) }).click();
    await widget.locator('input[name="ageYears"]').fill('60');
    await widget.locator('input[name="serumCreatinine"]').fill('90');
    await widget.getByRole('button', { name: t.crclUse }).click();
    findings.push(...(await axeFindings(page, 'CrCl helper')));

    await widget.getByRole('button', { name: m.emergency.button }).click();
    await expect.poll(() => emergencyCard(page).isVisible()).toBe(true);
    findings.push(...(await axeFindings(page, 'emergency card')));
    expect(findings).toEqual([]);
    await close();
  }, 180_000);

  it('the advisor: empty, missing and invalid inputs with their toasts, a result, the card', async () => {
    const url = pageAt(
      `advisor-${lang}`,
      `<sgx-bradycardia-advisor id="advisor" emergency api-base="${product.url}"></sgx-bradycardia-advisor>`,
      lang,
    );
    const { page, close } = await openPage(browser, url);
    await waitForWidget(page, '#advisor');
    const advisor = page.locator('#advisor');
    const t = m.advisor;
    const findings: string[] = [];
    findings.push(...(await axeFindings(page, 'empty')));
    await advisor.getByRole('button', { name: t.assess }).click();
    await expect.poll(() => toast(advisor).innerText()).toContain(t.missingTitle);
    findings.push(...(await axeFindings(page, 'missing inputs')));
    for (const [name, value] of [
      ['weight', '70'],
      ['age', '500'],
      ['baselineHr', '65'],
      ['creatinine', '90'],
    ] as const)
      await advisor.locator(`input[name="${name}"]`).fill(value);
    await advisor.getByRole('button', { name: t.assess }).click();
    await expect.poll(() => toast(advisor).innerText()).toContain(t.invalidTitle);
    findings.push(...(await axeFindings(page, 'invalid input')));
    await advisor.locator('input[name="age"]').fill('70');
    await advisor.getByRole('button', { name: t.assess }).click();
    await expect.poll(() => toast(advisor).innerText()).toContain(t.successTitle);
    await expect.poll(() => advisor.locator('[part="result"]').count()).toBe(1);
    findings.push(...(await axeFindings(page, 'result and toast')));
    await advisor.getByRole('button', { name: m.emergency.button }).click();
    await expect.poll(() => emergencyCard(page).isVisible()).toBe(true);
    findings.push(...(await axeFindings(page, 'emergency card')));
    expect(findings).toEqual([]);
    await close();
  }, 180_000);

  it('the ROI calculator: its first results and changed inputs', async () => {
    const url = pageAt(`roi-${lang}`, `<sgx-roi-calculator id="roi" cases="250"></sgx-roi-calculator>`, lang);
    const { page, close } = await openPage(browser, url);
    await waitForWidget(page, '#roi');
    const findings = await axeFindings(page, 'first results');
    await page.locator('#roi input[name="cases"]').fill('0');
    findings.push(...(await axeFindings(page, 'no cases')));
    expect(findings).toEqual([]);
    await close();
  }, 180_000);

  it('the access portal: the bar, its dialogs with errors and toasts, signed in, the account area', async () => {
    const url = pageAt(
      `portal-${lang}`,
      `<sgx-access-portal id="portal" api-base="${product.url}"></sgx-access-portal>`,
      lang,
    );
    const { page, close } = await openPage(browser, url);
    await waitForWidget(page, '#portal');
    const portal = page.locator('#portal');
    const t = m.portal;
    const findings = await axeFindings(page, 'signed out');
    await portal.getByRole('button', { name: t.openAccess }).click();
    const chooser = portal.getByRole('dialog', { name: t.chooserTitle });
    await expect.poll(() => chooser.isVisible()).toBe(true);
    findings.push(...(await axeFindings(page, 'chooser')));
    await chooser.getByRole('button', { name: t.chooseSignIn }).click();
    const dialog = portal.getByRole('dialog', { name: t.portalTitle });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    findings.push(...(await axeFindings(page, 'sign in')));
    await dialog.getByRole('button', { name: t.signInSubmit, exact: true }).last().click();
    findings.push(...(await axeFindings(page, 'sign in, empty fields')));
    await dialog.locator('form[part~="signin-form"] input[name="email"]').fill('nobody@hospital.example');
    await dialog.locator('form[part~="signin-form"] input[name="password"]').fill('wrong password');
    await dialog.getByRole('button', { name: t.signInSubmit, exact: true }).last().click();
    await expect.poll(() => toast(dialog).innerText()).toContain(t.signInFailedTitle);
    findings.push(...(await axeFindings(page, 'sign in failed, toast')));

    await dialog.getByRole('tab', { name: t.signUpTab }).click();
    const signUp = dialog.locator('form[part~="signup-form"]');
    await signUp.getByRole('button', { name: t.signUpSubmit }).click();
    await expect.poll(() => toast(dialog).innerText()).toContain(t.agreementTitle);
    findings.push(...(await axeFindings(page, 'sign up, errors and toast')));
    await signUp.locator('input[name="name"]').fill('Sara Axe');
    await signUp.locator('input[name="email"]').fill(`sara.axe.${lang}.${Date.now()}@hospital.example`);
    await signUp.locator('input[name="password"]').fill('correct horse battery');
    await signUp.locator('input[name="agreeTerms"]').check();
    await signUp.getByRole('button', { name: t.signUpSubmit }).click();
    await expect.poll(() => portal.getByRole('button', { name: t.profile }).count()).toBe(1);
    findings.push(...(await axeFindings(page, 'signed in, toast')));

    await portal.getByRole('button', { name: t.profile }).click();
    const account = portal.getByRole('dialog', { name: m.account.title });
    await expect.poll(() => account.isVisible()).toBe(true);
    await account.getByRole('button', { name: m.account.addPatient }).click();
    await account.locator('input[name="displayName"]').fill('F.A.');
    await account.locator('input[name="weightKg"]').fill('900');
    await account.getByRole('button', { name: m.account.save }).click();
    await expect.poll(() => toast(account).innerText()).toContain(m.account.actionFailed);
    findings.push(...(await axeFindings(page, 'account: patients, refused patient, toast')));
    await account.locator('input[name="weightKg"]').fill('72');
    await account.getByRole('button', { name: m.account.save }).click();
    await expect.poll(() => account.locator('[data-patient-id]').count()).toBe(1);
    findings.push(...(await axeFindings(page, 'account: a patient')));
    for (const tab of [m.account.tabs.history, m.account.tabs.exports, m.account.tabs.profile]) {
      await account.getByRole('tab', { name: tab }).click();
      findings.push(...(await axeFindings(page, `account: ${tab}`)));
    }
    expect(findings).toEqual([]);
    await close();
  }, 180_000);
});

/** What sticks out of the element's box, looking through its shadow root (open dialogs and the card aside). */
async function overflowOf(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const host = document.querySelector(sel)!;
    const box = host.getBoundingClientRect();
    const found: string[] = [];
    /** In a visually hidden box (1 px, its overflow clipped): read by screen readers, drawn nowhere. */
    const insideHidden = (element: Element) => {
      for (let at = element.parentElement; at; at = at.parentElement) {
        const rect = at.getBoundingClientRect();
        if (rect.width <= 1 && rect.height <= 1 && getComputedStyle(at).overflow !== 'visible') return true;
      }
      return false;
    };
    const walk = (root: ShadowRoot) => {
      for (const element of root.querySelectorAll('*')) {
        if (element.closest('dialog')) continue;
        const rect = element.getBoundingClientRect();
        // nothing to see: an empty box, a bar at 0 %, a visually hidden line (1 px, clipped) and what is in it
        if (rect.width === 0 || rect.height === 0 || (rect.width <= 1 && rect.height <= 1)) continue;
        if (insideHidden(element)) continue;
        if (rect.right > box.right + 0.5 || rect.left < box.left - 0.5) {
          const part = element.getAttribute('part');
          const name = `${element.localName}${part ? `[part=${part}]` : ''}`;
          found.push(`${name} ${Math.round(rect.left)}..${Math.round(rect.right)} of ${Math.round(box.right)}`);
        }
        if (element.shadowRoot) walk(element.shadowRoot);
      }
    };
    walk(host.shadowRoot!);
    const page = document.documentElement;
    return { pageOverflow: page.scrollWidth - page.clientWidth, sticking: found.slice(0, 6) };
  }, selector);
}

describe('in a column of 200-240 px', () => {
  it.each(['en', 'ar'])('every element fits, with nothing sticking out, empty and with results (%s)', async (lang) => {
    const url = pageAt(
      `narrow-${lang}`,
      `<sgx-dose-calculator emergency weight="70"></sgx-dose-calculator>
<sgx-bradycardia-advisor emergency></sgx-bradycardia-advisor>
<sgx-roi-calculator></sgx-roi-calculator><sgx-access-portal></sgx-access-portal>`,
      lang,
    );
    const found: string[] = [];
    for (const width of [200, 220, 240]) {
      const { page, close } = await openPage(browser, url, { viewport: { width, height: 800 } });
      for (const tag of TAGS) await waitForWidget(page, tag);
      const calc = page.locator('sgx-dose-calculator');
      await calc.locator('select[name="tofCount"]').selectOption('2');
      await calc.locator('button[type="submit"]').click();
      await expect.poll(() => calc.locator('[part="result"]').count()).toBe(1);
      for (const tag of TAGS) {
        const { pageOverflow, sticking } = await overflowOf(page, tag);
        if (pageOverflow > 0 || sticking.length > 0)
          found.push(`${width}px ${tag}: page +${pageOverflow}px; ${sticking.join('; ')}`);
      }
      await close();
    }
    expect(found).toEqual([]);
  });
});
