import { act, fireEvent, screen } from '@testing-library/react';
import { jsPDF } from 'jspdf';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildNotesPdf, notesFileName } from '../shared/notes-pdf.ts';
import { sessionStore } from '../shared/session-store.ts';
import { RoiCalculator, ROI_RECORD_AFTER_MS } from '../roi-calculator/RoiCalculator.tsx';
import { renderWidget } from '../test-utils.tsx';
import { describeEntry } from './notes-content.ts';

const user = { id: 'u1', email: 'sara@hospital.example', name: 'Sara', license: null };
let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => new Response(JSON.stringify({ historyId: 'h1' }), { status: 200, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  sessionStore().setState({ token: null, user: null, userFetchedAt: null, userStatus: 'idle', quickUse: false, selectedPatient: null });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('notes PDF (export to notes)', () => {
  it('is one page with the patient, inputs, result, warnings, clinician, date and "decision support only"', () => {
    const doc = buildNotesPdf(jsPDF, {
      title: 'Dose Calculator',
      patient: { displayName: 'F.A.', mrn: 'KFH-1', yearOfBirth: 1961 },
      clinicianName: 'Sara',
      inputs: [['bodyWeight', '72']],
      result: ['Dose: 2 mg/kg = 144 mg'],
      warnings: Array.from({ length: 40 }, (_, index) => `Warning number ${index} with enough words to wrap onto a second line of the page at this size.`),
      generatedAt: new Date(2026, 10, 22, 9, 5),
    });
    expect(doc.getNumberOfPages()).toBe(1);
    const raw = new TextDecoder('latin1').decode(doc.output('arraybuffer'));
    for (const text of ['F.A.', 'KFH-1', '1961', '144 mg', 'Dr. Sara', '2026-11-22 09:05', 'Decision support only']) expect([text, raw.includes(text)]).toEqual([text, true]);
    expect(notesFileName(new Date(2026, 10, 22, 9, 5), 'dose')).toBe('dose-20261122-0905.pdf');
  });

  it('describes a stored advisor entry from its result fields', () => {
    const described = describeEntry({
      toolType: 'bradycardia_advisor',
      inputs: { weight: 70 },
      result: { riskBand: 'HIGH', riskPercent: 23.4, doseMgPerKg: 4, doseMg: 280, doseMl: 2.8, recommendations: { preparation: ['280 mg (2.8 mL) single IV bolus over about 10 seconds'] }, warnings: [] },
    });
    expect(described.result).toEqual(['Bradycardia risk: HIGH (23.4%)', 'Dose: 4 mg/kg = 280 mg (2.8 mL)', '280 mg (2.8 mL) single IV bolus over about 10 seconds']);
  });
});

describe('ROI calculator history', () => {
  it('signed in: a changed calculation is recorded once the inputs settle; the untouched defaults are not', async () => {
    vi.useFakeTimers();
    sessionStore().setState({ token: 'tok', user, userFetchedAt: Date.now() });
    renderWidget(<RoiCalculator apiBase="https://api.example" />);
    act(() => vi.advanceTimersByTime(ROI_RECORD_AFTER_MS + 100));
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText(/^Number of cases/), { target: { value: '250' } });
    act(() => vi.advanceTimersByTime(ROI_RECORD_AFTER_MS - 1));
    expect(fetchMock).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('https://api.example/api/tools/run');
    expect(JSON.parse(String(init.body))).toEqual({ toolType: 'roi_calculator', inputs: { numberOfCases: 250, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 } });
  });

  it('Quick Use: nothing is sent', () => {
    vi.useFakeTimers();
    sessionStore().getState().startQuickUse();
    renderWidget(<RoiCalculator />);
    fireEvent.change(screen.getByLabelText(/^Number of cases/), { target: { value: '250' } });
    act(() => vi.advanceTimersByTime(ROI_RECORD_AFTER_MS * 2));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
