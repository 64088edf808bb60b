import type { Bundle, DocumentReference, MedicationRequest, Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DOSE_INPUT, NOTES_PDF_BYTES } from '../fhir/fhir-fixtures.test-support.ts';
import { fhirProblems } from '../test-support/fhir-validation.ts';
import { EHR_PATIENT_ID } from '../test-support/smart-ehr.ts';
import { doseWithNotes, launched, pair, whileEhr, type Pair } from '../test-support/smart-pair.ts';

// "Send to EHR" (POST /api/smart/send) against the stand-in EHR (api/test-support/smart-ehr.ts), which stores every
// create it takes, so a duplicate shows: what is written, that it is written once however often it is sent (a
// conditional create on the calculation's identifier), and what the clinician is told when the EHR refuses, cannot
// be reached, or answers too late. On each store.

const REFUSED =
  'The EHR did not accept the document. Nothing was written; try again, or export the PDF to the notes by hand.';
const UNREACHABLE = "The EHR's FHIR server could not be reached. Nothing was written; please try again in a minute.";
const TIMED_OUT =
  "The EHR did not answer in time, so the document may have been filed. Check the patient's chart before you " +
  'send it again.';

/** The calculation's identifier, as every resource written for it carries it. */
const identifierOf = (calculationId: string) => ({ system: 'urn:ietf:rfc:3986', value: `urn:uuid:${calculationId}` });
const ifNoneExistOf = (calculationId: string) =>
  `identifier=${encodeURIComponent('urn:ietf:rfc:3986')}|${encodeURIComponent(`urn:uuid:${calculationId}`)}`;

let main: Pair;
/** FHIR_WRITE_DRAFT_ORDERS=true, and a FHIR timeout of 1 s so that a late answer is quick to test. */
let drafts: Pair;
beforeAll(async () => {
  [main, drafts] = await Promise.all([pair(), pair({ writeDraftOrders: true, fhirTimeoutSeconds: 1 })]);
});
afterAll(async () => {
  await main?.close();
  await drafts?.close();
});

// Each test launches from the EHR, signs in there, calculates and sends: some seconds when every suite runs at once
// on two cores (the first measured 6.5 s under the full run, 1.9 s alone).
vi.setConfig({ testTimeout: 30_000 });

const send = (p: Pair, token: string, calculationId: string) =>
  p.api.request('POST', '/api/smart/send', { token, body: { calculationId } });

async function readyToSend(p: Pair, login: string, context: { encounter?: string } = {}) {
  const opened = await launched(p, p.ehr, { patient: EHR_PATIENT_ID, ...context }, login);
  const dose = await doseWithNotes(p.api, opened.token, opened.ehr.patient.id);
  expect((await dose.upload()).status).toBe(201);
  return { opened, dose };
}

describe('Send to EHR writes once', () => {
  it('the notes PDF as a DocumentReference for the launch patient, by the named clinician', async () => {
    const { opened, dose } = await readyToSend(main, 'dr.amal.haddad', { encounter: 'enc-778' });
    const before = main.ehr.created.length;
    const sent = await send(main, opened.token, dose.id);
    expect(sent.status).toBe(200);
    const written = main.ehr.created.slice(before);
    expect(written.map(({ resourceType }) => resourceType)).toEqual(['DocumentReference']);
    expect(sent.body).toEqual({
      documentReference: { id: written[0]!.id, alreadyFiled: false },
      medicationRequest: null,
    });
    const document = written[0]!.resource as DocumentReference;
    expect(document.identifier).toEqual([identifierOf(dose.id)]);
    expect(document.subject).toEqual({ reference: `Patient/${EHR_PATIENT_ID}` });
    expect(document.context).toEqual({ encounter: [{ reference: 'Encounter/enc-778' }] });
    expect(document.type?.coding?.[0]).toMatchObject({ system: 'http://loinc.org' });
    // The EHR's ID token named nobody: the author's name is the one its Practitioner resource has.
    expect(document.author).toEqual([{ reference: 'Practitioner/dr.amal.haddad', display: 'Amal Haddad' }]);
    expect(Buffer.from(document.content[0]!.attachment.data!, 'base64')).toEqual(NOTES_PDF_BYTES);
    const bundle: Bundle = { resourceType: 'Bundle', type: 'collection', entry: [{ resource: document as Resource }] };
    expect(fhirProblems(bundle)).toEqual([]);
    expect(main.ehr.createRequests.at(-1)).toEqual({
      resourceType: 'DocumentReference',
      ifNoneExist: ifNoneExistOf(dose.id),
      status: 201,
    });

    // Sent again (another tab, a reload, a second click): the EHR finds the first and files nothing new.
    const again = await send(main, opened.token, dose.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      documentReference: { id: written[0]!.id, alreadyFiled: true },
      medicationRequest: null,
    });
    expect(main.ehr.created.length).toBe(before + 1);
    const audit = (await main.api.auditLines()).filter((line) => line.action === 'calculation.send_ehr').slice(-2);
    expect(audit.map((line) => line.outcome)).toEqual(['success', 'success']);
  });

  it('refuses another patient’s calculation, one without its notes PDF, and a session not from the EHR', async () => {
    const opened = await launched(main, main.ehr, { patient: EHR_PATIENT_ID });
    const early = await doseWithNotes(main.api, opened.token, opened.ehr.patient.id);
    const first = await send(main, opened.token, early.id);
    expect(first.status).toBe(409);
    expect(first.body.message).toBe('Export the notes PDF of this calculation first, then send it to the EHR.');

    const patient = await main.api.request('POST', '/api/patients', {
      token: opened.token,
      body: { displayName: 'Another patient', mrn: 'MRN-OTHER' },
    });
    const dose = await doseWithNotes(main.api, opened.token, patient.body.id);
    await dose.upload();
    const before = main.ehr.created.length;
    const sent = await send(main, opened.token, dose.id);
    expect(sent.status).toBe(409);
    expect(sent.body.message).toBe(
      'This calculation is not for the patient the EHR opened the app with, so it was not sent.',
    );
    const plain = await main.api.signUp('Password Clinician');
    const refused = await send(main, plain.token, dose.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^This session was not opened from the EHR/);
    expect((await main.api.request('GET', '/api/smart/context', { token: plain.token })).status).toBe(404);
    expect(main.ehr.created.length).toBe(before);
  });

  it('with FHIR_WRITE_DRAFT_ORDERS=true: the draft order first, named by the document, each once', async () => {
    const { opened, dose } = await readyToSend(drafts, 'dr.amal.haddad', { encounter: 'enc-9' });
    expect(opened.ehr.draftOrders).toBe(true);
    const sent = await send(drafts, opened.token, dose.id);
    expect(sent.status).toBe(200);
    const [order, document] = drafts.ehr.created.slice(-2);
    expect(sent.body).toEqual({
      documentReference: { id: document!.id, alreadyFiled: false },
      medicationRequest: { id: order!.id, alreadyFiled: false },
    });
    const request = order!.resource as MedicationRequest;
    expect(request).toMatchObject({
      status: 'draft',
      intent: 'proposal',
      subject: { reference: `Patient/${EHR_PATIENT_ID}` },
      encounter: { reference: 'Encounter/enc-9' },
      identifier: [identifierOf(dose.id)],
    });
    expect(request.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity).toEqual({
      value: 140,
      unit: 'mg',
      system: 'http://unitsofmeasure.org',
      code: 'mg',
    });
    expect((document!.resource as DocumentReference).context).toEqual({
      encounter: [{ reference: 'Encounter/enc-9' }],
      related: [{ reference: `MedicationRequest/${order!.id}` }],
    });
    const count = drafts.ehr.created.length;
    const again = await send(drafts, opened.token, dose.id);
    expect(again.body).toEqual({
      documentReference: { id: document!.id, alreadyFiled: true },
      medicationRequest: { id: order!.id, alreadyFiled: true },
    });
    expect(drafts.ehr.created.length).toBe(count);
  });
});

describe('Send to EHR says what happened', () => {
  it('an EHR that refuses the write: 502 with its own message and code; nothing written', async () => {
    const { opened, dose } = await readyToSend(main, 'dr.refused');
    const before = main.ehr.created.length;
    const sent = await whileEhr(main.ehr, { writes: 'refuse' }, () => send(main, opened.token, dose.id));
    expect(sent.status).toBe(502);
    expect(sent.body).toEqual({ message: REFUSED, code: 'ehr_refused' });
    expect(main.ehr.created.length).toBe(before);
    expect(main.ehr.createRequests.at(-1)).toMatchObject({ resourceType: 'DocumentReference', status: 403 });
    const [line] = (await main.api.auditLines()).filter((entry) => entry.action === 'calculation.send_ehr').slice(-1);
    expect(line).toMatchObject({ outcome: 'failure', recordId: dose.id });
  });

  it('an EHR that cannot be reached: 504, nothing was written', async () => {
    const gone = await pair();
    try {
      const { opened, dose } = await readyToSend(gone, 'dr.gone');
      await gone.ehr.close();
      const sent = await send(gone, opened.token, dose.id);
      expect(sent.status).toBe(504);
      expect(sent.body).toEqual({ message: UNREACHABLE, code: 'ehr_unreachable' });
    } finally {
      await gone.close();
    }
  });

  it('an EHR that stores the document but answers late: 504 "may have been filed"; try again: still one', async () => {
    const { opened, dose } = await readyToSend(drafts, 'dr.late');
    const before = drafts.ehr.created.length;
    const sent = await whileEhr(drafts.ehr, { writes: { storeThenAnswerAfterMs: 2500 } }, () =>
      send(drafts, opened.token, dose.id),
    );
    expect(sent.status).toBe(504);
    expect(sent.body).toEqual({ message: TIMED_OUT, code: 'ehr_timeout' });
    // The EHR kept the draft order (the first write, answered late too).
    expect(drafts.ehr.created.slice(before).map((entry) => entry.resourceType)).toEqual(['MedicationRequest']);

    await new Promise((resolve) => setTimeout(resolve, 2600)); // the EHR finishes what it had taken
    const again = await send(drafts, opened.token, dose.id);
    expect(again.status).toBe(200);
    const written = drafts.ehr.created.slice(before);
    expect(written.map((entry) => entry.resourceType)).toEqual(['MedicationRequest', 'DocumentReference']);
    expect(again.body).toEqual({
      medicationRequest: { id: written[0]!.id, alreadyFiled: true },
      documentReference: { id: written[1]!.id, alreadyFiled: false },
    });
    // Sent a third time: exactly one DocumentReference in the chart.
    const third = await send(drafts, opened.token, dose.id);
    expect(third.body.documentReference).toEqual({ id: written[1]!.id, alreadyFiled: true });
    const documents = drafts.ehr.created.filter(
      (entry) =>
        entry.resourceType === 'DocumentReference' && entry.resource.identifier?.[0]?.value === `urn:uuid:${dose.id}`,
    );
    expect(documents).toHaveLength(1);
  });

  it('a document stored but answered late, then sent again: exactly one DocumentReference', async () => {
    const late = await pair({ fhirTimeoutSeconds: 1 });
    try {
      const { opened, dose } = await readyToSend(late, 'dr.late.document');
      const first = await whileEhr(late.ehr, { writes: { storeThenAnswerAfterMs: 2500 } }, () =>
        send(late, opened.token, dose.id),
      );
      expect(first.status).toBe(504);
      expect(first.body.code).toBe('ehr_timeout');
      expect(late.ehr.created.map((entry) => entry.resourceType)).toEqual(['DocumentReference']);
      const again = await send(late, opened.token, dose.id);
      expect(again.status).toBe(200);
      expect(again.body.documentReference).toEqual({ id: late.ehr.created[0]!.id, alreadyFiled: true });
      expect(late.ehr.created).toHaveLength(1);
    } finally {
      await late.close();
    }
  });

  it('a clinician the EHR names nowhere: the document has the fhirUser reference and no made-up name', async () => {
    const ready = await whileEhr(main.ehr, { practitioner: 'forbidden' }, () => readyToSend(main, 'dr.nameless'));
    expect(ready.opened.user.name).toBe('');
    const sent = await send(main, ready.opened.token, ready.dose.id);
    expect(sent.status).toBe(200);
    const document = main.ehr.created.at(-1)!.resource as DocumentReference;
    expect(document.author).toEqual([{ reference: 'Practitioner/dr.nameless' }]);
  });
});

describe('the draft order alone', () => {
  it('is not written for a result that is not a dose', async () => {
    const opened = await launched(drafts, drafts.ehr, { patient: EHR_PATIENT_ID }, 'dr.no.dose');
    const run = await drafts.api.request('POST', '/api/tools/run', {
      token: opened.token,
      body: {
        toolType: 'dose_calculator',
        inputs: { ...DOSE_INPUT, nmbaType: 'other' },
        patientId: opened.ehr.patient.id,
      },
    });
    await drafts.api.request('POST', `/api/exports?calculationId=${run.body.historyId}`, {
      token: opened.token,
      rawBody: NOTES_PDF_BYTES,
      headers: { 'Content-Type': 'application/pdf' },
    });
    const before = drafts.ehr.created.length;
    const sent = await send(drafts, opened.token, run.body.historyId);
    expect(sent.status).toBe(200);
    expect(sent.body.medicationRequest).toBeNull();
    expect(drafts.ehr.created.slice(before).map((entry) => entry.resourceType)).toEqual(['DocumentReference']);
  });
});
