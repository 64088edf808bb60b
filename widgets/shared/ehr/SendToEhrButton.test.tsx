import { DOSE_CALCULATOR_INPUTS } from '../notes/inputs/dose-calculator.ts';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import { SMART_EHR_REFUSED_MESSAGE } from '../../../contracts/smart-messages.ts';
import type { EhrContext } from '../../../contracts/smart.ts';
import { ApiError } from '../api/api-error.ts';
import { sessionStore } from '../session/session-store.ts';
import { renderWidget } from '../../test-utils.tsx';
import { LazyEhrPatientBanner, LazySendToEhrButton } from './lazy.tsx';
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
    send.mockResolvedValue({ documentReference: { id: 'doc-7' }, medicationRequest: { id: 'medreq-3' } });
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
