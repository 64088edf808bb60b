import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './load-once.ts';

describe('loadOnce', () => {
  it('downloads once, however many callers ask', async () => {
    const download = vi.fn(async () => ({ ready: true }));
    const load = loadOnce(download);
    const [first, second] = await Promise.all([load(), load()]);
    expect(await load()).toBe(first);
    expect(second).toBe(first);
    expect(download).toHaveBeenCalledTimes(1);
  });

  it('a failed download is tried again on the next call, and then kept', async () => {
    const download = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue('module');
    const load = loadOnce(download);
    await expect(load()).rejects.toThrow('Failed to fetch');
    expect(await load()).toBe('module');
    expect(await load()).toBe('module');
    expect(download).toHaveBeenCalledTimes(2);
  });
});
