import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryEntry, Patient } from '../../shared/session/account-api.ts';
import { messagesEn } from '../../shared/lang/messages/index.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { renderWidget } from '../../test-utils.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
import { namePatient } from './list-parts.tsx';
// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from '../../shared/lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../../shared/lang/lang-packs.ts';
// the access control's English texts, as the element that holds this part carries them
import '../catalogue.ts';

registerLangPack('ar', arabicPack);

// The history names each entry's patient from the clinician's patient list, which loads on its own: an entry
// linked to a patient is never shown as "No patient" while that list is on its way or could not be loaded.
const API = 'https://api.example.org';
const PATIENT: Patient = {
  id: 'p-1',
  displayName: 'F.A. Flowtest',
  mrn: 'KFH-7781',
  yearOfBirth: 1961,
  ageGroup: 'adult',
  weightKg: 72,
  notes: null,
  createdAt: '2026-11-22T09:00:00Z',
  updatedAt: '2026-11-22T09:00:00Z',
};
const entry = (id: string, patientId: string | null): HistoryEntry => ({
  id,
  patientId,
  toolType: 'dose_calculator',
  inputs: { bodyWeight: 72 },
  result: { kind: 'dose', indication: 'Moderate block (TOF count 2: T2 has reappeared)' },
  createdAt: '2026-11-22T09:06:00Z',
});
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let answerPatients: ((response: Response) => void) | undefined;
/** Answers the patient list once the panel has asked for it. */
const answerPatientsWith = async (response: Response) => {
  await vi.waitFor(() => expect(answerPatients).toBeDefined());
  await act(async () => answerPatients!(response));
};
beforeEach(() => {
  answerPatients = undefined;
  sessionStore().setState({
    token: 'token-1',
    user: { id: 'u-1', email: 'dr.sara@hospital.example', name: 'Sara', license: null },
    userFetchedAt: Date.now(),
    userStatus: 'idle',
    quickUse: false,
  });
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input) => {
      const url = String(input);
      if (url === `${API}/api/patients`) return new Promise<Response>((resolve) => (answerPatients = resolve));
      if (url.startsWith(`${API}/api/history`))
        return Promise.resolve(
          json(200, { items: [entry('h-1', 'p-1'), entry('h-2', null)], page: 1, pageSize: 20, total: 2 }),
        );
      return Promise.resolve(json(404, { message: 'Not found' }));
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Each row's first line, "tool · patient" (the row's text without its detail line). */
const rows = () =>
  within(screen.getByRole('list', { name: 'History' }))
    .getAllByRole('listitem')
    .map((row) => {
      const line = row.querySelector('span')!;
      return line.textContent!.slice(0, -line.querySelector('span')!.textContent!.length);
    });

describe('<HistoryPanel> patient names', () => {
  it('waits for the patient list, then names the linked patient; "No patient" only for the unlinked', async () => {
    renderWidget(<HistoryPanel apiBase={API} />);
    // The history has answered; the patients have not.
    await vi.waitFor(() => expect(answerPatients).toBeDefined());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('list', { name: 'History' })).toBeNull();
    expect(document.body.textContent).not.toContain('No patient');
    await answerPatientsWith(json(200, { patients: [PATIENT] }));
    await screen.findByRole('list', { name: 'History' });
    expect(rows()).toEqual(['Dose calculator · F.A. Flowtest', 'Dose calculator · No patient']);
  });

  it('when the patient list cannot be loaded, a linked entry is "Linked patient", not "No patient"', async () => {
    renderWidget(<HistoryPanel apiBase={API} />);
    await answerPatientsWith(json(500, { message: 'Something went wrong on the server. Please try again.' }));
    await screen.findByRole('list', { name: 'History' });
    expect(rows()).toEqual(['Dose calculator · Linked patient', 'Dose calculator · No patient']);
  });
});

describe('<HistoryPanel> in Arabic (docs/API.md: results are stored in English)', () => {
  afterEach(() => document.documentElement.removeAttribute('lang'));

  it('dates in digits; the opened entry in English, marked lang="en" dir="ltr", with readable labels', async () => {
    document.documentElement.setAttribute('lang', 'ar');
    renderWidget(<HistoryPanel apiBase={API} />);
    await answerPatientsWith(json(200, { patients: [PATIENT] }));
    const list = await screen.findByRole('list', { name: 'السجل' });
    const first = within(list).getAllByRole('listitem')[0]!;
    // the date as digits in a left-to-right run, never "22 Nov 2026" in an Arabic list
    const date = first.querySelector('bdi[data-run]')!;
    expect(date.textContent).toMatch(/^2026-11-22 \d{2}:\d{2}$/);
    expect(first.textContent).not.toMatch(/Nov|[\u2066-\u2069]/);
    // the English result line is marked English
    const result = first.querySelector('bdi[lang="en"]')!;
    expect([result.getAttribute('dir'), result.textContent]).toEqual([
      'ltr',
      'Moderate block (TOF count 2: T2 has reappeared)',
    ]);
    act(() => within(first).getByRole('button', { name: 'فتح' }).click());
    const inputs = document.querySelector('dl')!;
    expect([inputs.getAttribute('lang'), inputs.getAttribute('dir')]).toEqual(['en', 'ltr']);
    expect([...inputs.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Body weight']);
    expect(inputs.querySelector('dd')!.textContent).toBe('72 kg');
    expect(
      screen.getByText('Moderate block (TOF count 2: T2 has reappeared)').closest('[lang]')!.getAttribute('lang'),
    ).toBe('en');
  });
});

describe('namePatient', () => {
  const t = messagesEn.account;
  it.each([
    ['unlinked, list loaded', [PATIENT], null, 'No patient'],
    ['unlinked, list loading', null, null, 'No patient'],
    ['linked and listed', [PATIENT], 'p-1', 'F.A. Flowtest'],
    ['linked, list loading', null, 'p-1', 'Linked patient'],
    ['linked, not in the list', [], 'p-1', 'Linked patient'],
  ] as const)('%s', (_, patients, id, expected) => {
    expect(namePatient(patients, id, t)).toBe(expected);
  });
});
