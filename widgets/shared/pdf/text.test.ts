import { describe, expect, it } from 'vitest';
import { isPdfSafe, pdfSafe, pdfText } from './text.ts';

describe('pdfSafe (ROI report, notes PDF)', () => {
  it.each([
    ['TOF ratio ≥ 0.9', 'TOF ratio >= 0.9'],
    ['CrCl ≤ 30', 'CrCl <= 30'],
    ['sugammadex — neostigmine – 2025', 'sugammadex - neostigmine - 2025'],
    ['2 × 200 mg', '2 x 200 mg'],
    ['5 μg', '5 µg'],
    ['≥≥ ××', '>=>= xx'],
    ['plain ASCII (100%)', 'plain ASCII (100%)'],
    ['“quotes” → stay', '“quotes” → stay'],
  ])('%s → %s', (text, safe) => {
    expect(pdfSafe(text)).toBe(safe);
  });
});

describe('pdfText (the product page documents)', () => {
  it.each([
    ['TOF ratio ≥ 0.9 – 5 μg', 'TOF ratio >= 0.9 - 5 µg'],
    ['‘single’ “double” 5′ 6″', '\'single\' "double" 5\' 6"'],
    ['wait…', 'wait...'],
    ['TOF → T4 ← T1', 'TOF -> T4 <- T1'],
    ['• item', '- item'],
    ['−2 ‐ ‑ ‒', '-2 - - -'],
    ['≈ 3 min', '~ 3 min'],
    ['10\u2009mg\u202fper\u2007kg', '10 mg per kg'],
    ['γ-cyclodextrin, β, α', 'gamma-cyclodextrin, beta, alpha'],
    ['µmol/L, 37 °C, café', 'µmol/L, 37 °C, café'],
  ])('%s → %s', (text, safe) => {
    expect(pdfText(text)).toBe(safe);
    expect(isPdfSafe(pdfText(text))).toBe(true);
  });
});

describe('isPdfSafe', () => {
  it.each([
    ['ASCII and line\nbreaks', true],
    ['Latin-1: µ ° é ©', true],
    ['≥ 0.9', false],
    ['Greek μ', false],
    ['tab\there', false],
  ])('%s → %s', (text, safe) => {
    expect(isPdfSafe(text)).toBe(safe);
  });
});
