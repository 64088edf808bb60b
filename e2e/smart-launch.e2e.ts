import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EHR_PATIENT_ID,
  EHR_PATIENT_MRN,
  SMART_CLIENT_ID,
  SMART_CLIENT_SECRET,
  startSmartEhr,
  type LaunchContext,
  type SmartEhr,
} from '../api/test-support/smart-ehr.ts';
import { requireCommand } from '../scripts/debian-package.mjs';
import { launchBrowser } from './browser.ts';
import { startProductServer, waitForWidget } from './support.ts';

// Issue 33 (SMART App Launch) in real Chromium: the EHR (oidc-provider and a small FHIR server, started here)
// launches the built server configured by SMART_*; the clinician lands signed in with the EHR's patient
// chosen and the weight filled, calculates, and "Send to EHR" writes the notes PDF back. Refusals are pages.
let browser: Browser;
let ehr: SmartEhr;
/** An EHR whose smart-configuration does not offer PKCE S256. */
let ehrWithoutS256: SmartEhr;
let product: Awaited<ReturnType<typeof startProductServer>>;
let scratch: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  requireCommand('pdftotext', 'poppler-utils', 'The SMART launch browser test');
  browser = await launchBrowser();
  scratch = await mkdtemp(path.join(tmpdir(), 'sgx-smart-e2e-'));
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  ehr = await startSmartEhr({ redirectUri: `${publicUrl}/smart/callback` });
  ehrWithoutS256 = await startSmartEhr({ redirectUri: `${publicUrl}/smart/callback`, withoutS256: true });
  product = await startProductServer({
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    SMART_CLIENT_ID,
    SMART_CLIENT_SECRET,
    SMART_ALLOWED_ISSUERS: `${ehr.fhirBase},${ehrWithoutS256.fhirBase}`,
  });
});
afterAll(async () => {
  await product?.close();
  await ehr?.close();
  await ehrWithoutS256?.close();
  await browser?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const launchUrl = (iss: string, launch: string) =>
  `${product.url}/smart/launch?iss=${encodeURIComponent(iss)}&launch=${encodeURIComponent(launch)}`;

/** The EHR's own sign-in and consent (oidc-provider's development pages), as the clinician at the EHR. */
async function authorizeAtEhr(page: Page, at: SmartEhr, login = 'amal.haddad') {
  await page.waitForURL((url) => url.origin === at.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function launch(context: BrowserContext, launchContext: LaunchContext) {
  const page = await context.newPage();
  await page.goto(launchUrl(ehr.fhirBase, ehr.launch(launchContext)));
  await authorizeAtEhr(page, ehr);
  return page;
}

/** pdftotext's text of a PDF, one space between words. */
async function pdfText(base64: string): Promise<string> {
  const file = path.join(scratch, `document-${Date.now()}.pdf`);
  await writeFile(file, Buffer.from(base64, 'base64'));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/** An element's text as read, without the invisible direction isolates around figures and ids. */
const shownText = async (locator: Locator) => (await locator.innerText()).replace(/[\u2066-\u2069]/g, '').trim();

describe('a launch from the EHR', () => {
  it('lands signed in, the EHR patient chosen and the weight filled; Send to EHR writes the dose back', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await launch(context, { patient: EHR_PATIENT_ID, need_patient_banner: true });
      await page.waitForURL(`${product.url}/`);
      await waitForWidget(page, 'sgx-access-portal');
      const portal: Locator = page.locator('sgx-access-portal');
      const calculator = page.locator('sgx-dose-calculator');
      await expect
        .poll(() => portal.locator('[part="welcome"]').textContent(), { timeout: 15_000 })
        .toBe('Welcome, Dr. Amal Haddad');
      expect(page.url()).toBe(`${product.url}/`); // the one-time code is out of the address bar
      await waitForWidget(page, 'sgx-dose-calculator');
      // The EHR's patient is chosen, with the weight the EHR holds (its newest: 70 kg, not the older 68 kg), and
      // where it came from under the field.
      await expect.poll(() => calculator.getByLabel(/^Body weight/).inputValue(), { timeout: 15_000 }).toBe('70');
      expect(await shownText(calculator.locator('[part="ehr-weight"]'))).toMatch(
        /^From the EHR: 70 kg, recorded \d{4}-\d{2}-\d{2}\.$/,
      );
      const banner = calculator.getByRole('region', { name: 'Patient from the EHR' });
      await expect.poll(() => banner.innerText()).toContain('Layla Al-Harbi');
      const bannerText = await banner.innerText();
      expect(bannerText).toContain(`MRN ${EHR_PATIENT_MRN}`);
      expect(bannerText).toContain('Born 1979-04-12');
      expect(bannerText).toContain('Female');

      await calculator.getByLabel(/^TOF count/).selectOption('2');
      await calculator.getByRole('button', { name: 'Calculate Dose' }).click();
      const result = calculator.locator('[part="result"]');
      await expect.poll(() => result.innerText()).toContain('Saved to your history');
      expect(await result.innerText()).toContain('140 mg'); // 2 mg/kg × 70 kg
      expect(await result.innerText()).toContain(`Patient: Layla Al-Harbi (${EHR_PATIENT_MRN})`);

      const before = ehr.created.length;
      await calculator.getByRole('button', { name: 'Send to EHR' }).click();
      await expect
        .poll(() => calculator.locator('[part="ehr-status"]').innerText(), { timeout: 20_000 })
        .toMatch(/^Sent to the EHR as document \u2066?doc-\d+\u2069?\.$/);
      const written = ehr.created.slice(before);
      expect(written.map((resource) => resource.resourceType)).toEqual(['DocumentReference']);
      const status = await calculator.locator('[part="ehr-status"]').innerText();
      expect(status).toContain(written[0]!.id);
      const document = written[0]!.resource;
      expect(document.subject).toEqual({ reference: `Patient/${EHR_PATIENT_ID}` });
      expect(document.content[0].attachment.contentType).toBe('application/pdf');
      const text = await pdfText(document.content[0].attachment.data);
      expect(text).toContain('140 mg');
      expect(text).toContain('Layla Al-Harbi');
      // The EHR's ID token named nobody (as SMART's reference launcher's): the name is its Practitioner's, on the
      // page, in the PDF filed in the chart and as the document's author.
      expect(text).toContain('Clinician: Dr. Amal Haddad');
      expect(document.author).toEqual([{ reference: 'Practitioner/amal.haddad', display: 'Amal Haddad' }]);
      // Sent once: the button is done.
      expect(await calculator.getByRole('button', { name: 'Send to EHR' }).isDisabled()).toBe(true);

      // A reload keeps the session and asks the server for the launch's patient again.
      await page.reload();
      await waitForWidget(page, 'sgx-dose-calculator');
      await expect.poll(() => calculator.getByLabel(/^Body weight/).inputValue(), { timeout: 15_000 }).toBe('70');
      await expect
        .poll(() => calculator.getByRole('region', { name: 'Patient from the EHR' }).innerText())
        .toContain('Layla Al-Harbi');
    } finally {
      await context.close();
    }
  });
});

describe('a launch by another clinician in a browser that holds a session (a shared workstation)', () => {
  it('asks "Continue as …?": Stay keeps the session it had, Continue takes the new one', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const first = await launch(context, { patient: EHR_PATIENT_ID });
      await first.waitForURL(`${product.url}/`);
      const welcome = (page: Page) => page.locator('sgx-access-portal [part="welcome"]').textContent();
      await expect.poll(() => welcome(first), { timeout: 15_000 }).toBe('Welcome, Dr. Amal Haddad');
      const amalToken = await first.evaluate(() => localStorage.getItem('authToken'));
      await first.close();
      for (const answer of ['Stay as I am', 'Continue as Omar Saleh'] as const) {
        // Amal signed out of the EHR; Omar signs in there (the page's stored session stays: localStorage).
        await context.clearCookies();
        const page = await context.newPage();
        await page.goto(launchUrl(ehr.fhirBase, ehr.launch({ patient: EHR_PATIENT_ID })));
        await authorizeAtEhr(page, ehr, 'omar.saleh');
        await page.waitForURL(`${product.url}/`);
        const question = page.locator('sgx-access-portal').getByRole('dialog', { name: 'Switch account?' });
        await expect
          .poll(() => question.innerText(), { timeout: 15_000 })
          .toContain('You are signed in as Amal Haddad. Continue as Omar Saleh?');
        await question.getByRole('button', { name: answer }).click();
        if (answer === 'Stay as I am') {
          await expect.poll(() => welcome(page)).toBe('Welcome, Dr. Amal Haddad');
          expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBe(amalToken);
        } else {
          await expect.poll(() => welcome(page), { timeout: 15_000 }).toBe('Welcome, Dr. Omar Saleh');
          expect(await page.evaluate(() => localStorage.getItem('authToken'))).not.toBe(amalToken);
        }
        await page.close();
      }
    } finally {
      await context.close();
    }
  });
});

describe('a launch to the Arabic page (/smart/launch?lang=ar)', () => {
  it('says in Arabic who was chosen, and what the EHR gave on Send to EHR', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(
        `${launchUrl(ehr.fhirBase, ehr.launch({ patient: EHR_PATIENT_ID, need_patient_banner: true }))}&lang=ar`,
      );
      await authorizeAtEhr(page, ehr);
      await page.waitForURL(`${product.url}/ar/`);
      await waitForWidget(page, 'sgx-dose-calculator');
      const calculator = page.locator('sgx-dose-calculator');
      await expect.poll(() => calculator.getByLabel(/^وزن الجسم/).inputValue(), { timeout: 15_000 }).toBe('70');
      const banner = calculator.getByRole('region', { name: 'المريض من السجل الصحي الإلكتروني' });
      await expect.poll(() => banner.innerText()).toContain('Layla Al-Harbi');
      expect(await banner.innerText()).toContain('أنثى');
      await calculator.getByLabel(/^عدد سلسلة الأربع/).selectOption('2');
      await calculator.getByRole('button', { name: 'احسب الجرعة' }).click();
      const send = calculator.getByRole('button', { name: 'إرسال إلى السجل الصحي' });
      await send.click();
      await expect
        .poll(() => calculator.locator('[part="ehr-status"]').innerText(), { timeout: 20_000 })
        .toMatch(/^أُرسل إلى السجل الصحي الإلكتروني كمستند \u2066?doc-\d+\u2069?\.$/);
    } finally {
      await context.close();
    }
  });
});

describe('a relaunch whose weight search fails: the field is empty, the kept weight is not called the EHR’s', () => {
  /** A first launch that reads 70 kg; then the EHR's weight search fails for the relaunch `open` makes. */
  async function relaunchWithoutWeight(open: (context: BrowserContext) => Promise<Page>) {
    const first = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await launch(first, { patient: EHR_PATIENT_ID });
      await waitForWidget(page, 'sgx-dose-calculator');
      await expect
        .poll(
          () =>
            page
              .locator('sgx-dose-calculator')
              .getByLabel(/^Body weight/)
              .inputValue(),
          { timeout: 15_000 },
        )
        .toBe('70');
    } finally {
      await first.close();
    }
    ehr.behaviour.weightSearch = 'fail';
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      return { context, page: await open(context) };
    } finally {
      ehr.behaviour.weightSearch = 'answer';
    }
  }
  const today = () => new Date().toISOString().slice(0, 10);

  it('in English', async () => {
    const { context, page } = await relaunchWithoutWeight((context) => launch(context, { patient: EHR_PATIENT_ID }));
    try {
      await page.waitForURL(`${product.url}/`);
      await waitForWidget(page, 'sgx-dose-calculator');
      const calculator = page.locator('sgx-dose-calculator');
      const note = calculator.locator('[part="ehr-weight"]');
      await expect
        .poll(() => shownText(note), { timeout: 15_000 })
        .toBe(
          "The EHR's weights could not be read now. Weigh the patient or type the weight. Your record of this " +
            `patient holds 70 kg, from a launch on ${today()}: not confirmed by the EHR now.`,
        );
      expect(await calculator.getByLabel(/^Body weight/).inputValue()).toBe('');
      expect(await calculator.innerText()).not.toContain('the weight the EHR holds');
      // Nothing to calculate with until a weight is typed: the dose needs it.
      await calculator.getByLabel(/^TOF count/).selectOption('2');
      await calculator.getByRole('button', { name: 'Calculate Dose' }).click();
      expect(await calculator.locator('[part="result"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('in Arabic', async () => {
    const { context, page } = await relaunchWithoutWeight(async (context) => {
      const opened = await context.newPage();
      await opened.goto(`${launchUrl(ehr.fhirBase, ehr.launch({ patient: EHR_PATIENT_ID }))}&lang=ar`);
      await authorizeAtEhr(opened, ehr);
      return opened;
    });
    try {
      await page.waitForURL(`${product.url}/ar/`);
      await waitForWidget(page, 'sgx-dose-calculator');
      const calculator = page.locator('sgx-dose-calculator');
      await expect
        .poll(() => shownText(calculator.locator('[part="ehr-weight"]')), { timeout: 15_000 })
        .toBe(
          'تعذّرت قراءة أوزان المريض من السجل الصحي الإلكتروني الآن. زِن المريض أو أدخل الوزن. ' +
            `يحتوي سجلك لهذا المريض على 70 kg من فتح سابق في ${today()}: لم يؤكده السجل الصحي الإلكتروني الآن.`,
        );
      expect(await calculator.getByLabel(/^وزن الجسم/).inputValue()).toBe('');
      expect(await calculator.innerText()).not.toContain('مع وزن الجسم المسجل في السجل الصحي');
    } finally {
      await context.close();
    }
  });
});

describe('Send to EHR when the EHR refuses or answers late', () => {
  // Its own EHR and server: a FHIR timeout of 3 s, so that a late answer (6 s) is quick to show.
  let slowEhr: SmartEhr;
  let slow: Awaited<ReturnType<typeof startProductServer>>;
  beforeAll(async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    slowEhr = await startSmartEhr({ redirectUri: `${publicUrl}/smart/callback` });
    slow = await startProductServer({
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      SMART_CLIENT_ID,
      SMART_CLIENT_SECRET,
      SMART_ALLOWED_ISSUERS: slowEhr.fhirBase,
      SMART_FHIR_TIMEOUT_SECONDS: '3',
    });
  });
  afterAll(async () => {
    await slow?.close();
    await slowEhr?.close();
  });

  /** Launched (in `lang`), a dose calculated and saved: the calculator, ready to send. */
  async function readyToSend(context: BrowserContext, lang: 'en' | 'ar') {
    const page = await context.newPage();
    const url =
      `${slow.url}/smart/launch?iss=${encodeURIComponent(slowEhr.fhirBase)}` +
      `&launch=${slowEhr.launch({ patient: EHR_PATIENT_ID })}${lang === 'ar' ? '&lang=ar' : ''}`;
    await page.goto(url);
    await authorizeAtEhr(page, slowEhr);
    await waitForWidget(page, 'sgx-dose-calculator');
    const calculator = page.locator('sgx-dose-calculator');
    const weight = calculator.getByLabel(lang === 'ar' ? /^وزن الجسم/ : /^Body weight/);
    await expect.poll(() => weight.inputValue(), { timeout: 15_000 }).toBe('70');
    await calculator.getByLabel(lang === 'ar' ? /^عدد سلسلة الأربع/ : /^TOF count/).selectOption('2');
    await calculator.getByRole('button', { name: lang === 'ar' ? 'احسب الجرعة' : 'Calculate Dose' }).click();
    await expect
      .poll(() => calculator.locator('[part="result"]').innerText(), { timeout: 15_000 })
      .toContain(lang === 'ar' ? 'تم الحفظ في سجلك' : 'Saved to your history');
    return calculator;
  }

  it.each([
    [
      'en',
      'Send to EHR',
      'Not sent to the EHR: The EHR did not accept the document. Nothing was written; try again, or export the ' +
        'PDF to the notes by hand.',
    ],
    [
      'ar',
      'إرسال إلى السجل الصحي',
      'لم يُرسل إلى السجل الصحي الإلكتروني: لم يقبل السجل الصحي الإلكتروني المستند. لم يُكتب شيء؛ حاول مرة أخرى، ' +
        'أو صدّر ملف PDF إلى الملاحظات يدويًا.',
    ],
  ] as const)('an EHR that refuses the document: its own message (%s), nothing written', async (lang, button, text) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const calculator = await readyToSend(context, lang);
      const before = slowEhr.created.length;
      slowEhr.behaviour.writes = 'refuse';
      await calculator.getByRole('button', { name: button }).click();
      const alert = calculator.getByRole('alert').filter({ hasText: lang === 'ar' ? 'لم يُرسل' : 'Not sent' });
      await expect.poll(() => shownText(alert), { timeout: 20_000 }).toBe(text);
      expect(slowEhr.created.length).toBe(before);
      expect(await calculator.getByRole('button', { name: button }).isDisabled()).toBe(false);
    } finally {
      slowEhr.behaviour.writes = 'store';
      await context.close();
    }
  });

  it('an EHR that stores the document but answers late: "may have been filed"; sent again, exactly one', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const calculator = await readyToSend(context, 'en');
      const before = slowEhr.created.length;
      slowEhr.behaviour.writes = { storeThenAnswerAfterMs: 6000 };
      const send = calculator.getByRole('button', { name: 'Send to EHR' });
      await send.click();
      const alert = calculator.getByRole('alert').filter({ hasText: 'Not sent' });
      await expect
        .poll(() => shownText(alert), { timeout: 30_000 })
        .toBe(
          'Not sent to the EHR: The EHR did not answer in time, so the document may have been filed. Check the ' +
            "patient's chart before you send it again.",
        );
      slowEhr.behaviour.writes = 'store';
      expect(slowEhr.created.slice(before).map((entry) => entry.resourceType)).toEqual(['DocumentReference']);
      const filed = slowEhr.created[before]!;
      await send.click();
      await expect
        .poll(() => shownText(calculator.locator('[part="ehr-status"]')), { timeout: 20_000 })
        .toBe(`Already in the EHR as document ${filed.id}: an earlier try filed it. Nothing new was written.`);
      const documents = slowEhr.created.filter(
        (entry) =>
          entry.resourceType === 'DocumentReference' &&
          entry.resource.identifier?.[0]?.value === filed.resource.identifier[0].value,
      );
      expect(documents).toHaveLength(1);
      expect(await pdfText(filed.resource.content[0].attachment.data)).toContain('140 mg');
    } finally {
      slowEhr.behaviour.writes = 'store';
      await context.close();
    }
  });
});

describe('refused launches say why', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  });
  afterAll(() => context?.close());

  async function refusal(page: Page) {
    return (await page.locator('#smart-refusal').innerText()).trim();
  }

  it('an EHR that is not in SMART_ALLOWED_ISSUERS', async () => {
    const page = await context.newPage();
    const response = await page.goto(launchUrl('https://ehr.elsewhere.example/fhir', 'abc'));
    expect(response?.status()).toBe(403);
    expect(await refusal(page)).toBe(
      'This EHR is not one this app is set up to open from (its address is not in SMART_ALLOWED_ISSUERS). ' +
        'Ask IT to add it.',
    );
    expect(await page.locator('[lang="ar"]').first().innerText()).toMatch(/[\u0600-\u06FF]/);
  });

  it('a callback whose state the app never issued (or already used)', async () => {
    const page = await context.newPage();
    const response = await page.goto(`${product.url}/smart/callback?code=stolen&state=${'a'.repeat(43)}`);
    expect(response?.status()).toBe(400);
    expect(await refusal(page)).toBe('This launch has expired or was already used. Open the app from the EHR again.');
  });

  it('an EHR that does not offer PKCE S256', async () => {
    const page = await context.newPage();
    const response = await page.goto(launchUrl(ehrWithoutS256.fhirBase, ehrWithoutS256.launch({ patient: 'x' })));
    expect(response?.status()).toBe(503);
    expect(await refusal(page)).toContain('is not set up for SMART');
    expect(ehrWithoutS256.authorizationRequests).toEqual([]);
  });

  it('a launch whose token has no patient context', async () => {
    const page = await launch(context, {});
    await page.waitForURL((url) => url.pathname === '/smart/callback');
    await expect
      .poll(() => refusal(page))
      .toBe('The EHR opened the app without a patient. Open it from a patient\u2019s chart.');
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  });
});

describe('a launch inside the EHR’s own frame', () => {
  // The EHR's chart page (127.0.0.1, the same site as its sign-in) frames the app on another site (localhost):
  // there the browser neither sends nor stores the app's cookies, so the launch must keep its state otherwise.
  let framedEhr: SmartEhr;
  let framed: Awaited<ReturnType<typeof startProductServer>>;
  let publicUrl: string;
  let chart: { url: string; html: string; close: () => Promise<void> };
  beforeAll(async () => {
    const server = createHttpServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(chart.html);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    chart = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chart`,
      html: '',
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
    const port = await freePort();
    publicUrl = `http://localhost:${port}`;
    framedEhr = await startSmartEhr({ redirectUri: `${publicUrl}/smart/callback` });
    framed = await startProductServer({
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      SMART_CLIENT_ID,
      SMART_CLIENT_SECRET,
      SMART_ALLOWED_ISSUERS: framedEhr.fhirBase,
      FRAME_ANCESTORS: new URL(chart.url).origin,
    });
  });
  afterAll(async () => {
    await framed?.close();
    await framedEhr?.close();
    await chart?.close();
  });

  it('lands signed in with the patient and the weight; its one cookie is partitioned to the EHR’s page', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    try {
      const page = await context.newPage();
      const launch = framedEhr.launch({ patient: EHR_PATIENT_ID });
      const src = `${publicUrl}/smart/launch?iss=${encodeURIComponent(framedEhr.fhirBase)}&launch=${launch}`;
      chart.html =
        '<!doctype html><title>EHR chart</title><h1>Chart</h1>' +
        `<iframe name="app" src="${src}" style="width:1300px;height:900px"></iframe>`;
      await page.goto(chart.url);
      const app = page.frameLocator('iframe[name="app"]');
      await app.locator('input[name="login"]').fill('amal.haddad');
      await app.locator('input[name="password"]').fill('any password');
      await app.getByRole('button', { name: 'Sign-in' }).click();
      await app.getByRole('button', { name: 'Continue' }).click();
      await expect
        .poll(() => app.locator('sgx-access-portal [part="welcome"]').textContent(), { timeout: 20_000 })
        .toBe('Welcome, Dr. Amal Haddad');
      // The calculator below the fold renders once scrolled to (host/islands.tsx).
      await app.locator('sgx-dose-calculator').scrollIntoViewIfNeeded();
      const weight = app.locator('sgx-dose-calculator').getByLabel(/^Body weight/);
      await expect.poll(() => weight.inputValue(), { timeout: 15_000 }).toBe('70');
      expect(page.url()).toBe(chart.url); // all of it inside the frame
      // The launch's binding cookie, the one the app sets: a third party's, so SameSite=None, Secure and
      // partitioned (kept under the EHR's site, where a browser that blocks third-party cookies still keeps it).
      const cookies = await context.cookies(publicUrl);
      expect(cookies.map(({ name, sameSite, secure, httpOnly }) => ({ name, sameSite, secure, httpOnly }))).toEqual([
        { name: 'sgx_smart_binding', sameSite: 'None', secure: true, httpOnly: true },
      ]);
    } finally {
      await context.close();
    }
  });
});
