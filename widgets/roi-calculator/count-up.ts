import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { ROI_ANIMATION_STEP_MS, ROI_ANIMATION_STEPS, roundTo } from '../../clinical/index.ts';

/**
 * The values a count-up shows after each step, from zero to `target` (docs/product.md §4: 60 steps of 25 ms).
 * Step i (1-based) shows target × i / steps rounded to `decimals`; the last frame is exactly `target`,
 * so the figure left on screen is the formula's result.
 */
export function countUpFrames(target: number, steps: number, decimals: number): number[] {
  const count = Math.max(1, Math.floor(steps));
  const frames: number[] = [];
  for (let step = 1; step < count; step++) frames.push(roundTo((target * step) / count, decimals));
  frames.push(target);
  return frames;
}

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function reducedMotionQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(REDUCED_MOTION_QUERY)
    : null;
}

/** Whether the user asked for reduced motion; follows changes to the setting. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = reducedMotionQuery();
      query?.addEventListener?.('change', onChange);
      return () => query?.removeEventListener?.('change', onChange);
    },
    () => reducedMotionQuery()?.matches ?? false,
    () => false,
  );
}

interface CountUpOptions {
  steps?: number;
  stepMs?: number;
}

/**
 * Animates several figures together from zero to their targets, restarting whenever any target
 * changes. With prefers-reduced-motion the targets show at once. Returns the values to display.
 */
export function useCountUp(
  targets: readonly number[],
  decimals: readonly number[],
  { steps = ROI_ANIMATION_STEPS, stepMs = ROI_ANIMATION_STEP_MS }: CountUpOptions = {},
): number[] {
  const reduced = usePrefersReducedMotion();
  const key = `${targets.join('|')}/${decimals.join('|')}/${steps}`;
  // The step belongs to the targets it was counted for: new targets start at step 0 in the same render.
  const [progress, setProgress] = useState({ key, step: 0 });
  const frames = useMemo(
    () => targets.map((target, index) => countUpFrames(target, steps, decimals[index] ?? 0)),
    [key], // `key` stands for targets, decimals and steps
  );

  useEffect(() => {
    if (reduced) return;
    let step = 0;
    setProgress({ key, step });
    const timer = setInterval(() => {
      step += 1;
      setProgress({ key, step });
      if (step >= steps) clearInterval(timer);
    }, stepMs);
    return () => clearInterval(timer);
  }, [key, reduced, steps, stepMs]);

  const step = reduced ? steps : progress.key === key ? progress.step : 0;
  return targets.map((target, index) =>
    step >= steps ? target : step <= 0 ? 0 : (frames[index]?.[step - 1] ?? target),
  );
}
