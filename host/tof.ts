import { HERO_TOF_END, HERO_TOF_INTERVAL_MS, HERO_TOF_START, HERO_TOF_STEP } from '../clinical/index.ts';

/**
 * The hero's animated TOF ratio (docs/product.md §2, §9): 0.40 up to 0.90 in steps of 0.01 every 50 ms, then
 * it starts again. Counted in hundredths so the values are exact (0.1 + 0.2 is not 0.3).
 */
export const TOF_START_HUNDREDTHS = Math.round(HERO_TOF_START * 100);
export const TOF_END_HUNDREDTHS = Math.round(HERO_TOF_END * 100);
export const TOF_STEP_HUNDREDTHS = Math.round(HERO_TOF_STEP * 100);
export const TOF_INTERVAL_MS = HERO_TOF_INTERVAL_MS;

export function nextTofHundredths(current: number): number {
  return current >= TOF_END_HUNDREDTHS ? TOF_START_HUNDREDTHS : current + TOF_STEP_HUNDREDTHS;
}

export const formatTof = (hundredths: number): string => (hundredths / 100).toFixed(2);
