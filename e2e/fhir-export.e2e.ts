import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bundle, MedicationRequest, Observation, Resource } from '@medplum/fhirtypes';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fhirProblems, loadFhirDefinitions } from '../api/test-support/fhir-validation.ts';
import { AUTH_TOKEN_KEY } from '../widgets/shared/session/session-storage-keys.ts';
import { launchBrowser } from './browser.ts';
import { startProductServer, signUpInPortal, waitForWidget } from './support.ts';

// Issue 33: a dose calculated for a patient in the browser, downloaded from the history entry as a FHIR R4
// Bundle ("Download FHIR"), against the real built server; the file's dose is the stored result's.
const MRN_SYSTEM = 'urn:oid:2.16.840.1.113883.3.1234.1';
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let downloads: string;
beforeAll(async () => {
  browser = await launchBrowser();
  downloads = await mkdtemp(path.join(tmpdir(), 'sgx-fhir-'));
  product = await startProductServer({ FHIR_MRN_SYSTEM: MRN_SYSTEM });
  loadFhirDefinitions();
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
  await rm(downloads, { recursive: true, force: true });
});

async function signUp(page: Page, portal: Locator, name: string) {
  await signUpInPortal(portal, {
    name,
    email: `fhir.${Date.now()}@hospital.example`,
    password: 'correct horse battery',
  });
  return page.evaluate((key) => localStorage.getItem(key), AUTH_TOKEN_KEY);
}

const resources = (bundle: Bundle) => (bundle.entry ?? []).map((entry) => entry.resource as Resource);
const ofType = <T extends Resource>(bundle: Bundle, type: T['resourceType']) =>
  resources(bundle).filter((resource): resource is T => resource.resourceType === type);

describe('Download FHIR', () => {
  it('sign up, dose a patient (CrCl from serum creatinine), export notes, download the entry as FHIR', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${product.url}/`);
    await waitForWidget(page, 'sgx-access-portal');
    await waitForWidget(page, 'sgx-dose-calculator');
    const portal = page.locator('sgx-access-portal');
    const calculator = page.locator('sgx-dose-calculator');
    const token = await signUp(page, portal, 'Sara Al-Harbi');
    expect(token).toBeTruthy();

    // a patient, chosen for the tools
    let account = portal.getByRole('dialog', { name: 'Account' });
    await portal.getByRole('button', { name: 'Profile' }).click();
    await account.getByRole('tab', { name: 'Patients' }).click();
    await account.getByRole('button', { name: 'Add patient' }).click();
    await account.getByLabel(/^Display name or initials/).fill('F.A. Fhirtest');
    await account.getByLabel(/^MRN \/ hospital number/).fill('KFH-3301');
    await account.getByLabel(/^Year of birth/).fill('1958');
    await account.getByLabel(/^Weight/).fill('81');
    await account.getByRole('button', { name: 'Save' }).click();
    await account.getByRole('button', { name: 'Use for calculations' }).click();
    await expect.poll(() => account.getByRole('button', { name: 'In use' }).count()).toBe(1);
    await account.getByRole('button', { name: 'Close' }).click();

    // the dose: weight from the patient, CrCl estimated from serum creatinine, TOF 0 (4 mg/kg)
    await expect.poll(() => calculator.getByLabel(/^Body weight/).inputValue()).toBe('81');
    await calculator.getByRole('button', { name: /Calculate from serum creatinine/ }).click();
    await calculator.getByLabel(/^Age \(years\)/).fill('60');
    await calculator.getByLabel(/^Sex/).selectOption('male');
    await calculator.getByLabel(/^Unit/).selectOption('mg/dL');
    await calculator.getByLabel(/^Serum creatinine/).fill('1.2');
    await calculator.getByRole('button', { name: 'Estimate and use' }).click();
    // (140 − 60) × 81 / (72 × 1.2) = 75 mL/min
    await expect.poll(() => calculator.getByLabel(/^Creatinine clearance/).inputValue()).toBe('75');
    await calculator.getByLabel(/^TOF count/).selectOption('0');
    await calculator.getByRole('button', { name: 'Calculate Dose' }).click();
    const result = calculator.locator('[part="result"]');
    await expect.poll(() => result.innerText()).toContain('Saved to your history');
    expect(await result.innerText()).toContain('324 mg'); // 4 mg/kg × 81 kg

    // the notes PDF, stored with the calculation: it goes into the Bundle
    const exported = page.waitForEvent('download');
    await calculator.getByRole('button', { name: 'Export PDF to notes' }).click();
    await exported;
    await expect
      .poll(() => calculator.getByRole('region', { name: 'Notifications' }).innerText())
      .toContain('Downloaded and stored with your exports.');

    // the history entry: "Download FHIR" beside "Export PDF to notes"
    await portal.getByRole('button', { name: 'Profile' }).click();
    account = portal.getByRole('dialog', { name: 'Account' });
    await account.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => account.locator('[data-history-id]').count()).toBe(1);
    const historyId = await account.locator('[data-history-id]').getAttribute('data-history-id');
    await account.getByRole('button', { name: 'Open' }).click();
    const entry = account.getByRole('article');
    expect(await entry.getByRole('button', { name: 'Export PDF to notes' }).count()).toBe(1);
    const downloaded = page.waitForEvent('download');
    await entry.getByRole('button', { name: 'Download FHIR' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^sugammadex-dose-\\d{4}-\\d{2}-\\d{2}-${historyId!.slice(0, 8)}\\.fhir\\.json$`),
    );
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    await expect
      .poll(() => portal.getByRole('region', { name: 'Notifications' }).innerText())
      .toContain('FHIR file downloaded');

    // the file: a valid FHIR R4 transaction Bundle whose dose and weight are the stored result's
    const bundle = JSON.parse(await readFile(file, 'utf8')) as Bundle;
    expect(fhirProblems(bundle)).toEqual([]);
    expect(bundle.type).toBe('transaction');
    const stored = await page.evaluate(
      async ([id, bearer]) =>
        (await fetch(`/api/history/${id}`, { headers: { Authorization: `bearer ${bearer}` } })).json(),
      [historyId!, token!] as const,
    );
    expect(stored.result.totalDoseMg).toBe(324);
    const [request] = ofType<MedicationRequest>(bundle, 'MedicationRequest');
    expect(request!.status).toBe('draft');
    expect(request!.dosageInstruction![0]!.doseAndRate![0]!.doseQuantity).toEqual({
      value: stored.result.totalDoseMg,
      unit: 'mg',
      system: 'http://unitsofmeasure.org',
      code: 'mg',
    });
    const [weight, crcl] = ofType<Observation>(bundle, 'Observation');
    expect(weight!.valueQuantity).toMatchObject({ value: stored.inputs.bodyWeight, code: 'kg' });
    expect(stored.inputs.creatinineMethod).toBe('cockcroft_gault');
    expect(crcl!.valueQuantity).toMatchObject({ value: 75, code: 'mL/min' });
    expect(crcl!.code.coding?.[0]?.code).toBe('35591-7');
    expect(ofType(bundle, 'Patient')[0]).toMatchObject({
      identifier: [{ system: MRN_SYSTEM, value: 'KFH-3301' }],
      birthDate: '1958',
    });
    const [notes] = ofType(bundle, 'DocumentReference') as { content: { attachment: { data: string } }[] }[];
    expect(Buffer.from(notes!.content[0]!.attachment.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    await context.close();
  });
});
