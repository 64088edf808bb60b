import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROI_ANIMATION_STEP_MS, ROI_ANIMATION_STEPS } from '../../clinical/index.ts';
import { countUpFrames, useCountUp } from './count-up.ts';
import { stubReducedMotion } from './test-helpers.ts';

describe('countUpFrames (docs/product.md §4: 60 steps of 25 ms)', () => {
  it('54 000 SAR in 60 frames: 900, 1800, … ending exactly at 54 000', () => {
    const frames = countUpFrames(54000, 60, 0);
    expect(frames).toHaveLength(60);
    expect(frames[0]).toBe(900); // 54 000 × 1/60
    expect(frames[0]).toBeGreaterThan(0);
    expect(frames[29]).toBe(27000); // half-way
    expect(frames.at(-1)).toBe(54000);
    expect(frames.every((frame, i) => i === 0 || frame >= frames[i - 1]!)).toBe(true);
  });

  it.each([
    // target, decimals, first frame, last frame
    [1200, 0, 20, 1200], // 1200 / 60 = 20
    [20, 1, 0.3, 20], // 20 / 60 = 0.333 → 0.3
    [3.8, 1, 0.1, 3.8], // 3.8 / 60 = 0.0633 → 0.1
    [7.6, 1, 0.1, 7.6],
    [-1200, 0, -20, -1200], // the product slower: counts down to the loss
    [0, 0, 0, 0],
  ])('%d with %d decimals: first %d, last exactly %d', (target, decimals, first, last) => {
    const frames = countUpFrames(target, ROI_ANIMATION_STEPS, decimals);
    expect(frames).toHaveLength(60);
    expect(frames[0]).toBe(first);
    expect(frames.at(-1)).toBe(last);
    for (const frame of frames) expect(Number(frame.toFixed(decimals))).toBe(frame);
  });

  it('one step (or fewer) is the target itself', () => {
    expect(countUpFrames(54000, 1, 0)).toEqual([54000]);
    expect(countUpFrames(54000, 0, 0)).toEqual([54000]);
  });
});

describe('useCountUp', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('starts at zero, steps every 25 ms, and ends on the targets after 60 steps (1.5 s)', () => {
    const { result } = renderHook(() => useCountUp([54000, 3.8], [0, 1]));
    expect(result.current).toEqual([0, 0]);
    act(() => vi.advanceTimersByTime(ROI_ANIMATION_STEP_MS));
    expect(result.current).toEqual([900, 0.1]);
    act(() => vi.advanceTimersByTime(ROI_ANIMATION_STEP_MS * 29));
    expect(result.current).toEqual([27000, 1.9]);
    act(() => vi.advanceTimersByTime(ROI_ANIMATION_STEP_MS * 30));
    expect(result.current).toEqual([54000, 3.8]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('restarts from zero when a target changes', () => {
    const { result, rerender } = renderHook(({ target }) => useCountUp([target], [0]), {
      initialProps: { target: 1200 },
    });
    act(() => vi.advanceTimersByTime(1500));
    expect(result.current).toEqual([1200]);
    rerender({ target: 2400 });
    expect(result.current).toEqual([0]);
    act(() => vi.advanceTimersByTime(ROI_ANIMATION_STEP_MS));
    expect(result.current).toEqual([40]); // 2400 / 60
    act(() => vi.advanceTimersByTime(1500));
    expect(result.current).toEqual([2400]);
  });

  it('with prefers-reduced-motion, shows the targets at once and sets no timer', () => {
    stubReducedMotion(true);
    const { result } = renderHook(() => useCountUp([54000, 3.8], [0, 1]));
    expect(result.current).toEqual([54000, 3.8]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
