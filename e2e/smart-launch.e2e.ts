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
      // The EHR's patient is chosen, with the weight the EHR holds (its newest: 70 kg, not the older 68 kg).
      await expect.poll(() => calculator.getByLabel(/^Body weight/).inputValue(), { timeout: 15_000 }).toBe('70');
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

  it('lands signed in with the patient and the weight, with no cookie of the app in the browser', async () => {
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
      expect(await context.cookies(publicUrl)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
