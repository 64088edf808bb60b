import { jsPDF } from 'jspdf';
import { describe, expect, it } from 'vitest';
import { describeEntry } from './notes-content.ts';
import { TOOL_INPUTS } from './inputs/index.ts';
import { buildNotesPdf, notesFileName } from './notes-pdf.ts';

describe('notes PDF (export to notes)', () => {
  it('is one page with the patient, inputs, result, warnings, clinician, date and "decision support only"', () => {
    const doc = buildNotesPdf(jsPDF, {
      title: 'Dose Calculator',
      patient: { displayName: 'F.A.', mrn: 'KFH-1', yearOfBirth: 1961 },
      clinicianName: 'Sara',
      inputs: [['bodyWeight', '72']],
      result: ['Dose: 2 mg/kg = 144 mg'],
      warnings: Array.from(
        { length: 40 },
        (_, index) => `Warning number ${index} with enough words to wrap onto a second line of the page at this size.`,
      ),
      generatedAt: new Date(2026, 10, 22, 9, 5),
    });
    expect(doc.getNumberOfPages()).toBe(1);
    const raw = new TextDecoder('latin1').decode(doc.output('arraybuffer'));
    for (const text of ['F.A.', 'KFH-1', '1961', '144 mg', 'Dr. Sara', '2026-11-22 09:05', 'Decision support only'])
      expect([text, raw.includes(text)]).toEqual([text, true]);
    expect(notesFileName(new Date(2026, 10, 22, 9, 5), 'dose')).toBe('dose-20261122-0905.pdf');
  });

  it('describes a stored advisor entry from its result fields', () => {
    const described = describeEntry(
      {
        toolType: 'bradycardia_advisor',
        inputs: { weight: 70 },
        result: {
          riskBand: 'HIGH',
          riskPercent: 23.4,
          doseMgPerKg: 4,
          doseMg: 280,
          doseMl: 2.8,
          recommendations: { preparation: ['280 mg (2.8 mL) single IV bolus over about 10 seconds'] },
          warnings: [],
        },
      },
      TOOL_INPUTS.bradycardia_advisor,
    );
    expect(described.result).toEqual([
      'Bradycardia risk: HIGH (23.4%)',
      'Dose: 4 mg/kg = 280 mg (2.8 mL)',
      '280 mg (2.8 mL) single IV bolus over about 10 seconds',
    ]);
  });

  it('says where a creatinine clearance came from only when the helper gave it', () => {
    const entry = (inputs: Record<string, unknown>) =>
      describeEntry(
        { toolType: 'dose_calculator', inputs, result: { kind: 'not_indicated', title: 'Not indicated' } },
        TOOL_INPUTS.dose_calculator,
      );
    expect(entry({ creatinine: 65, creatinineMethod: 'cockcroft_gault' }).inputs).toEqual([
      ['Creatinine clearance', '65 mL/min'],
      ['Creatinine clearance from', 'Cockcroft-Gault, from serum creatinine'],
    ]);
    expect(entry({ creatinine: 65, creatinineMethod: null }).inputs).toEqual([['Creatinine clearance', '65 mL/min']]);
    expect(entry({ creatinine: null }).inputs).toEqual([['Creatinine clearance', 'not entered']]);
  });
});
