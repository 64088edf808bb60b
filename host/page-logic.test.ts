import { describe, expect, it, vi } from 'vitest';
import { openStudy } from './components/Evidence.tsx';
import { formatTof, nextTofHundredths, TOF_END_HUNDREDTHS, TOF_START_HUNDREDTHS } from './tof.ts';

describe('hero TOF ratio (docs/product.md §9: 0.4 to 0.9, step 0.01, every 50 ms, then again)', () => {
  it('counts 0.40, 0.41 … 0.90 and starts again at 0.40', () => {
    const shown: string[] = [];
    let value = TOF_START_HUNDREDTHS;
    for (let tick = 0; tick < 53; tick += 1) {
      shown.push(formatTof(value));
      value = nextTofHundredths(value);
    }
    expect(shown.slice(0, 3)).toEqual(['0.40', '0.41', '0.42']);
    expect(shown[50]).toBe('0.90');
    expect(shown.slice(51)).toEqual(['0.40', '0.41']);
    expect(new Set(shown.slice(0, 51)).size).toBe(51); // 0.40 … 0.90: fifty-one distinct values
    expect(TOF_END_HUNDREDTHS - TOF_START_HUNDREDTHS).toBe(50);
  });
});

describe('study links (docs/product.md §5)', () => {
  it.each(['', '#'])('a link of "%s" shows "Study: {title}" then "Link will be available when published."', (link) => {
    const alert = vi.fn();
    expect(openStudy({ title: 'A future trial', link }, alert)).toBe(false);
    expect(alert).toHaveBeenCalledExactlyOnceWith('Study: A future trial\n\nLink will be available when published.');
  });
  it('a real link opens (no alert)', () => {
    const alert = vi.fn();
    expect(openStudy({ title: 'STRONGER', link: 'https://doi.org/10.1097/ALN.0000000000003256' }, alert)).toBe(true);
    expect(alert).not.toHaveBeenCalled();
  });
});
