import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import {
  keepOfflineRun,
  OFFLINE_RUNS_LIMIT,
  offlineRuns,
  offlineRunsKey,
  replayOfflineRuns,
  type OfflineRun,
} from './offline-runs.ts';

const run = (weight: number) => ({
  toolType: 'bradycardia_advisor' as const,
  inputs: { weight },
  patientId: 'p1',
  lang: 'en' as const,
});
const network = () => new ApiError(0, '0: Network error', 'offline', [], 'network');
const http = (status: number) => new ApiError(status, `${status}: x`, 'x');

afterEach(() => vi.restoreAllMocks());

describe('calculations kept on the device', () => {
  it('are kept per clinician, oldest first, with their inputs, patient and language', () => {
    expect(keepOfflineRun('u1', run(70))).toBe(true);
    expect(keepOfflineRun('u1', run(80))).toBe(true);
    expect(keepOfflineRun('u2', run(90))).toBe(true);
    expect(offlineRuns('u1').map((kept) => kept.inputs)).toEqual([{ weight: 70 }, { weight: 80 }]);
    expect(offlineRuns('u2')).toHaveLength(1);
    const [first] = offlineRuns('u1') as [OfflineRun];
    expect(first).toMatchObject({ toolType: 'bradycardia_advisor', patientId: 'p1', lang: 'en' });
    expect(typeof first.id).toBe('string');
    expect(JSON.parse(localStorage.getItem(offlineRunsKey('u1'))!)).toHaveLength(2);
  });

  it(`holds at most ${OFFLINE_RUNS_LIMIT}: a further one is refused, the kept ones untouched`, () => {
    for (let index = 0; index < OFFLINE_RUNS_LIMIT; index += 1) expect(keepOfflineRun('u1', run(index + 1))).toBe(true);
    expect(keepOfflineRun('u1', run(999))).toBe(false);
    expect(offlineRuns('u1')).toHaveLength(OFFLINE_RUNS_LIMIT);
    expect(offlineRuns('u1')[0]!.inputs).toEqual({ weight: 1 });
  });

  it('blocked storage: nothing kept, and it says so', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(keepOfflineRun('u1', run(70))).toBe(false);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(offlineRuns('u1')).toEqual([]);
  });

  it('ignores what is not a list of calculations under its key', () => {
    localStorage.setItem(offlineRunsKey('u1'), '{not json');
    expect(offlineRuns('u1')).toEqual([]);
    localStorage.setItem(offlineRunsKey('u1'), JSON.stringify([{ id: 'x' }, 5]));
    expect(offlineRuns('u1')).toEqual([]);
  });
});

describe('replayOfflineRuns', () => {
  it('sends each oldest first and removes it once accepted', async () => {
    keepOfflineRun('u1', run(70));
    keepOfflineRun('u1', run(80));
    const sent: unknown[] = [];
    const result = await replayOfflineRuns('u1', async (kept) => {
      sent.push(kept.inputs);
      // removed only after the server accepted it: still there while it is being sent
      expect(offlineRuns('u1').some((other) => other.id === kept.id)).toBe(true);
      return { historyId: 'h' };
    });
    expect(sent).toEqual([{ weight: 70 }, { weight: 80 }]);
    expect(result).toEqual({ saved: 2, refused: 0, waiting: 0 });
    expect(localStorage.getItem(offlineRunsKey('u1'))).toBeNull();
  });

  it('still offline, a server error or an ended session: stops, and keeps that one and the rest', async () => {
    for (const error of [network(), http(502), http(401), http(429), new TypeError('Failed to fetch')]) {
      localStorage.clear();
      keepOfflineRun('u1', run(70));
      keepOfflineRun('u1', run(80));
      keepOfflineRun('u1', run(90));
      let calls = 0;
      const result = await replayOfflineRuns('u1', async () => {
        calls += 1;
        if (calls === 2) throw error;
        return {};
      });
      expect([String(error), result]).toEqual([String(error), { saved: 1, refused: 0, waiting: 2 }]);
      expect(offlineRuns('u1').map((kept) => kept.inputs)).toEqual([{ weight: 80 }, { weight: 90 }]);
    }
  });

  it('a 4xx the server will never accept (a patient deleted since): dropped and counted, the rest sent', async () => {
    keepOfflineRun('u1', run(70));
    keepOfflineRun('u1', run(80));
    const result = await replayOfflineRuns('u1', async (kept) => {
      if (kept.inputs.weight === 70) throw http(404);
      return {};
    });
    expect(result).toEqual({ saved: 1, refused: 1, waiting: 0 });
    expect(offlineRuns('u1')).toEqual([]);
  });

  it('an OK answer of another shape was still recorded: removed, not sent again', async () => {
    keepOfflineRun('u1', run(70));
    const result = await replayOfflineRuns('u1', async () => {
      throw new ApiError(200, '200: unexpected answer', 'x', [], 'unreadable');
    });
    expect(result).toEqual({ saved: 1, refused: 0, waiting: 0 });
  });

  it('one replay at a time: a second asked for while the first runs sends nothing', async () => {
    keepOfflineRun('u1', run(70));
    let release: () => void = () => {};
    const record = vi.fn(() => new Promise<unknown>((resolve) => (release = () => resolve({}))));
    const first = replayOfflineRuns('u1', record);
    const second = await replayOfflineRuns('u1', record);
    expect(second).toBeNull();
    release();
    expect(await first).toEqual({ saved: 1, refused: 0, waiting: 0 });
    expect(record).toHaveBeenCalledTimes(1);
    // and afterwards there is nothing left to send
    expect(await replayOfflineRuns('u1', record)).toBeNull();
    expect(record).toHaveBeenCalledTimes(1);
  });

  it('uses the Web Locks API where there is one: held elsewhere (another tab), nothing is sent', async () => {
    keepOfflineRun('u1', run(70));
    const request = vi.fn(async (_name: string, _options: unknown, body: (lock: unknown) => Promise<unknown>) =>
      body(null),
    );
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    try {
      const record = vi.fn(async () => ({}));
      expect(await replayOfflineRuns('u1', record)).toBeNull();
      expect(request).toHaveBeenCalledWith(offlineRunsKey('u1'), { ifAvailable: true }, expect.any(Function));
      expect(record).not.toHaveBeenCalled();
      expect(offlineRuns('u1')).toHaveLength(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the Idempotency-Key of a kept calculation', () => {
  it('is the one its first attempt sent, and every replay sends it again until the server accepts it', async () => {
    localStorage.clear();
    keepOfflineRun('u1', { ...run(70), idempotencyKey: 'key-of-the-click' });
    const keys: (string | undefined)[] = [];
    await replayOfflineRuns('u1', async (kept) => {
      keys.push(kept.idempotencyKey);
      throw network(); // the answer was lost again
    });
    await replayOfflineRuns('u1', async (kept) => {
      keys.push(kept.idempotencyKey);
      return { historyId: 'h' };
    });
    expect(keys).toEqual(['key-of-the-click', 'key-of-the-click']);
  });

  it('a run kept by an earlier release (no key) is given one, kept, and sent on every replay', async () => {
    localStorage.clear();
    const legacy: OfflineRun = { id: 'old', madeAt: 1, ...run(70) };
    localStorage.setItem(offlineRunsKey('u1'), JSON.stringify([legacy]));
    const keys: (string | undefined)[] = [];
    await replayOfflineRuns('u1', async (kept) => {
      keys.push(kept.idempotencyKey);
      throw http(503);
    });
    expect(offlineRuns('u1')[0]?.idempotencyKey).toBe(keys[0]);
    await replayOfflineRuns('u1', async (kept) => {
      keys.push(kept.idempotencyKey);
      return {};
    });
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});
