import { DOSE_CALCULATOR_INPUTS } from '../notes/inputs/dose-calculator.ts';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import { SMART_EHR_REFUSED_MESSAGE, SMART_EHR_TIMEOUT_MESSAGE } from '../../../contracts/smart-messages.ts';
import type { EhrContext } from '../../../contracts/smart.ts';
import { ApiError } from '../api/api-error.ts';
import { sessionStore } from '../session/session-store.ts';
import { renderWidget } from '../../test-utils.tsx';
import { LazyEhrPatientBanner, LazyEhrWeightNote, LazySendToEhrButton } from './lazy.tsx';
import { arabicPack } from '../lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../lang/lang-packs.ts';

registerLangPack('ar', arabicPack);

// "Send to EHR" and the patient banner, in a session opened from the EHR and only there; what the EHR answered
// (the id it gave, or why not) said in the element's language. The PDF and the request are send.ts's (mocked).
const send = vi.hoisted(() => vi.fn());
vi.mock('./send.ts', () => ({ sendToEhr: send }));

const PATIENT = {
  id: 'p-1',
  displayName: 'Layla Al-Harbi',
  mrn: 'MRN-447120',
  yearOfBirth: 1979,
  ageGroup: 'adult' as const,
  weightKg: 70,
  notes: null,
  createdAt: '2026-11-25T10:00:00Z',
  updatedAt: '2026-11-25T10:00:00Z',
};
const EHR: EhrContext = {
  patient: PATIENT,
  banner: { name: 'Layla Al-Harbi', mrn: 'MRN-447120', birthDate: '1979-04-12', gender: 'female' },
  draftOrders: true,
  weight: { source: 'ehr', kg: 70, recordedAt: '2026-11-22T08:00:00.000Z' },
  weightMaxAgeDays: 30,
  keptWeight: null,
};
const request = (patientId = PATIENT.id) => ({
  entry: { toolType: 'dose_calculator' as const, inputs: {}, result: {} },
  inputs: DOSE_CALCULATOR_INPUTS,
  title: 'Dose',
  patient: PATIENT,
  what: 'dose',
  patientId,
  calculationId: 'c-1',
});

beforeEach(() => {
  send.mockReset();
  sessionStore().setState({
    token: 't',
    user: { id: 'u-1', email: 'a@hospital.example', name: 'Amal Haddad', license: null },
    userFetchedAt: Date.now(),
    userStatus: 'idle',
    ehr: null,
  });
});
afterEach(() => {
  document.documentElement.lang = 'en';
});

describe('Send to EHR', () => {
  it('is not there outside a session opened from the EHR, nor for another patient', async () => {
    const { unmount } = renderWidget(<LazySendToEhrButton apiBase="" request={request()} />);
    await act(async () => {});
    expect(screen.queryByRole('button', { name: 'Send to EHR' })).toBeNull();
    unmount();
    sessionStore().getState().openedFromEhr(EHR);
    renderWidget(<LazySendToEhrButton apiBase="" request={request('p-2')} />);
    await act(async () => {});
    expect(screen.queryByRole('button', { name: 'Send to EHR' })).toBeNull();
  });

  it('says the ids the EHR gave the document and the draft order', async () => {
    sessionStore().getState().openedFromEhr(EHR);
    send.mockResolvedValue({
      documentReference: { id: 'doc-7', alreadyFiled: false },
      medicationRequest: { id: 'medreq-3', alreadyFiled: false },
    });
    renderWidget(<LazySendToEhrButton apiBase="https://api.example" request={request()} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send to EHR' }));
    await vi.waitFor(() =>
      expect(withoutIsolates(screen.getByRole('status').textContent!)).toBe(
        'Sent to the EHR as document doc-7, with draft order medreq-3 to review and sign in the EHR.',
      ),
    );
    expect(send).toHaveBeenCalledWith('https://api.example', request(), 'Amal Haddad');
    expect(screen.getByRole('button', { name: 'Send to EHR' })).toHaveProperty('disabled', true);
  });

  it('in Arabic, says why the EHR did not take it, and may be tried again', async () => {
    document.documentElement.lang = 'ar';
    sessionStore().getState().openedFromEhr(EHR);
    send.mockRejectedValue(new ApiError(502, `502: ${SMART_EHR_REFUSED_MESSAGE}`, SMART_EHR_REFUSED_MESSAGE));
    renderWidget(<LazySendToEhrButton apiBase="" request={request()} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'إرسال إلى السجل الصحي' }));
    const alert = await screen.findByRole('alert');
    expect(withoutIsolates(alert.textContent!)).toBe(
      'لم يُرسل إلى السجل الصحي الإلكتروني: ' +
        'لم يقبل السجل الصحي الإلكتروني المستند. لم يُكتب شيء؛ حاول مرة أخرى، أو صدّر ملف PDF إلى الملاحظات يدويًا.',
    );
    expect(screen.getByRole('button', { name: 'إرسال إلى السجل الصحي' })).toHaveProperty('disabled', false);
  });

  it('after a timeout: says the document may have been filed; sent again, that the EHR had it already', async () => {
    sessionStore().getState().openedFromEhr(EHR);
    send.mockRejectedValueOnce(new ApiError(504, `504: ${SMART_EHR_TIMEOUT_MESSAGE}`, SMART_EHR_TIMEOUT_MESSAGE));
    send.mockResolvedValueOnce({ documentReference: { id: 'doc-7', alreadyFiled: true }, medicationRequest: null });
    renderWidget(<LazySendToEhrButton apiBase="" request={request()} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send to EHR' }));
    expect(withoutIsolates((await screen.findByRole('alert')).textContent!)).toBe(
      'Not sent to the EHR: The EHR did not answer in time, so the document may have been filed. ' +
        "Check the patient's chart before you send it again.",
    );
    await user.click(screen.getByRole('button', { name: 'Send to EHR' }));
    await vi.waitFor(() =>
      expect(withoutIsolates(screen.getByRole('status').textContent!)).toBe(
        'Already in the EHR as document doc-7: an earlier try filed it. Nothing new was written.',
      ),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('in Arabic, the timeout and the document found filed', async () => {
    document.documentElement.lang = 'ar';
    sessionStore().getState().openedFromEhr(EHR);
    send.mockRejectedValueOnce(new ApiError(504, `504: ${SMART_EHR_TIMEOUT_MESSAGE}`, SMART_EHR_TIMEOUT_MESSAGE));
    send.mockResolvedValueOnce({
      documentReference: { id: 'doc-7', alreadyFiled: true },
      medicationRequest: { id: 'medreq-3', alreadyFiled: true },
    });
    renderWidget(<LazySendToEhrButton apiBase="" request={request()} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'إرسال إلى السجل الصحي' }));
    expect(withoutIsolates((await screen.findByRole('alert')).textContent!)).toBe(
      'لم يُرسل إلى السجل الصحي الإلكتروني: ' +
        'لم يُجب السجل الصحي الإلكتروني في الوقت المحدد، فربما حُفظ المستند. راجع ملف المريض قبل إرساله مرة أخرى.',
    );
    await user.click(screen.getByRole('button', { name: 'إرسال إلى السجل الصحي' }));
    await vi.waitFor(() =>
      expect(withoutIsolates(screen.getByRole('status').textContent!)).toBe(
        'موجود في السجل الصحي الإلكتروني بالفعل كمستند doc-7، مع مسودة أمر medreq-3: ' +
          'حفظتهما محاولة سابقة. لم يُكتب شيء جديد.',
      ),
    );
  });
});

describe('the note under the weight field', () => {
  const noteText = async () => withoutIsolates((await screen.findByTestId('ehr-weight-note')).textContent!);

  it.each<[string, Partial<EhrContext>, string]>([
    ['the EHR weight this launch read', {}, 'From the EHR: 70 kg, recorded 2026-11-22.'],
    [
      'the search failed; the weight kept from a launch',
      {
        weight: { source: 'none', reason: 'unreadable', ehrKg: null, recordedAt: null },
        keptWeight: { kg: 72, savedAt: '2026-03-02T09:00:00.000Z', fromLaunch: true },
      },
      "The EHR's weights could not be read now. Weigh the patient or type the weight. " +
        'Your record of this patient holds 72 kg, from a launch on 2026-03-02: not confirmed by the EHR now.',
    ],
    [
      'none recorded; a weight typed into the record',
      {
        weight: { source: 'none', reason: 'not_recorded', ehrKg: null, recordedAt: null },
        keptWeight: { kg: 66.5, savedAt: '2026-05-04T09:00:00.000Z', fromLaunch: false },
      },
      'The EHR holds no body weight for this patient. Weigh the patient or type the weight. Your record of this ' +
        'patient holds 66.5 kg, typed in (the record last changed on 2026-05-04): not confirmed by the EHR now.',
    ],
    [
      'older than the limit',
      { weight: { source: 'none', reason: 'too_old', ehrKg: 71, recordedAt: '2026-09-01T09:00:00.000Z' } },
      "The EHR's newest weight, 71 kg, was recorded on 2026-09-01: more than 30 days ago. " +
        'Weigh the patient or type the weight.',
    ],
    [
      'out of range',
      { weight: { source: 'none', reason: 'unusable', ehrKg: 720, recordedAt: '2026-11-22T08:00:00.000Z' } },
      "The EHR's newest weight could not be used (out of range, or in a unit this app does not read). " +
        'Weigh the patient or type the weight.',
    ],
    [
      'undated',
      { weight: { source: 'none', reason: 'undated', ehrKg: 71, recordedAt: null } },
      "The EHR's newest weight has no date. Weigh the patient or type the weight.",
    ],
  ])('%s', async (_name, change, text) => {
    sessionStore()
      .getState()
      .openedFromEhr({ ...EHR, ...change });
    renderWidget(<LazyEhrWeightNote patientId="p-1" />);
    expect(await noteText()).toBe(text);
    expect(await noteText()).not.toContain('the weight the EHR holds');
  });

  it('in Arabic: the kept weight is never called the EHR’s', async () => {
    document.documentElement.lang = 'ar';
    sessionStore()
      .getState()
      .openedFromEhr({
        ...EHR,
        weight: { source: 'none', reason: 'unreadable', ehrKg: null, recordedAt: null },
        keptWeight: { kg: 72, savedAt: '2026-03-02T09:00:00.000Z', fromLaunch: true },
      });
    renderWidget(<LazyEhrWeightNote patientId="p-1" />);
    expect(await noteText()).toBe(
      'تعذّرت قراءة أوزان المريض من السجل الصحي الإلكتروني الآن. زِن المريض أو أدخل الوزن. ' +
        'يحتوي سجلك لهذا المريض على 72 kg من فتح سابق في 2026-03-02: لم يؤكده السجل الصحي الإلكتروني الآن.',
    );
  });

  it('is not there for another patient, nor outside a launch', async () => {
    const { unmount } = renderWidget(<LazyEhrWeightNote patientId="p-1" />);
    await act(async () => {});
    expect(screen.queryByTestId('ehr-weight-note')).toBeNull();
    unmount();
    sessionStore().getState().openedFromEhr(EHR);
    renderWidget(<LazyEhrWeightNote patientId="p-2" />);
    await act(async () => {});
    expect(screen.queryByTestId('ehr-weight-note')).toBeNull();
  });
});

describe('the patient banner', () => {
  it('shows the EHR patient when the EHR asked for it, and nothing otherwise', async () => {
    const { unmount } = renderWidget(<LazyEhrPatientBanner patientId="p-1" />);
    await act(async () => {});
    expect(screen.queryByRole('region', { name: 'Patient from the EHR' })).toBeNull();
    unmount();
    sessionStore().getState().openedFromEhr(EHR);
    renderWidget(<LazyEhrPatientBanner patientId="p-1" />);
    const banner = await screen.findByRole('region', { name: 'Patient from the EHR' });
    expect(withoutIsolates(banner.textContent!)).toBe(
      'Patient from the EHRLayla Al-HarbiMRN MRN-447120Born 1979-04-12Female',
    );
    sessionStore()
      .getState()
      .openedFromEhr({ ...EHR, banner: null });
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Patient from the EHR' })).toBeNull());
  });
});
