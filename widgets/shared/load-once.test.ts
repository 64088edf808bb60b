import { describe, expect, it, vi } from 'vitest';
import { freshAddress, loadOnce } from './load-once.ts';

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

describe('loadOnce on a browser that keeps a failed import for the life of the page', () => {
  const url = 'https://reversal.example.org/assets/arabic-pack-1a2b.js';
  // the module map's answer for the chunk's own address, whatever the network does now
  const cachedFailure = () =>
    vi.fn(async (): Promise<{ texts: string }> => {
      throw new TypeError(`Failed to fetch dynamically imported module: ${url}`);
    });

  it('imports the chunk again under a fresh address once the network is back', async () => {
    const load = cachedFailure();
    const importAt = vi.fn(async (address: string) => ({ texts: `arabic from ${address}` }));
    const loadPack = loadOnce(load, url, importAt);
    await expect(loadPack()).rejects.toThrow('Failed to fetch');
    expect(importAt).not.toHaveBeenCalled();
    const module = await loadPack();
    expect(module.texts).toBe(`arabic from ${url}?retry=1`);
    expect(await loadPack()).toBe(module);
    expect(load).toHaveBeenCalledTimes(2);
    expect(importAt).toHaveBeenCalledTimes(1);
  });

  it('each retry that fails is followed by one under another address', async () => {
    const importAt = vi
      .fn<(address: string) => Promise<unknown>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockImplementation(async (address) => ({ texts: address }));
    const loadPack = loadOnce(cachedFailure(), url, importAt);
    await expect(loadPack()).rejects.toThrow('Failed to fetch');
    await expect(loadPack()).rejects.toThrow('Failed to fetch');
    expect((await loadPack()).texts).toBe(`${url}?retry=2`);
    expect(importAt.mock.calls.map(([address]) => address)).toEqual([`${url}?retry=1`, `${url}?retry=2`]);
  });

  it('without a built address (dev server, tests) a retry only imports again', async () => {
    const load = cachedFailure();
    const loadPack = loadOnce(load);
    await expect(loadPack()).rejects.toThrow();
    await expect(loadPack()).rejects.toThrow();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('the fresh address keeps the query the chunk had', () => {
    expect(freshAddress('/assets/arabic-pack-1a2b.js?v=3', 2)).toBe('/assets/arabic-pack-1a2b.js?v=3&retry=2');
  });
});
