import { describe, expect, it, vi } from 'vitest';
import { FRESH_ADDRESSES, freshAddress, loadOnce } from './load-once.ts';

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
  /** A network that is down until `online.up` is set, recording what was imported. */
  const network = () => {
    const online = { up: false };
    const importAt = vi.fn(async (address: string): Promise<unknown> => {
      if (!online.up) throw new TypeError(`Failed to fetch dynamically imported module: ${address}`);
      return { texts: `arabic from ${address}` };
    });
    return { online, importAt, reachable: vi.fn(async () => online.up) };
  };

  it('imports the chunk again under a fresh address once the network is back', async () => {
    const load = cachedFailure();
    const net = network();
    const loadPack = loadOnce(load, url, net);
    await expect(loadPack()).rejects.toThrow('Failed to fetch');
    // offline: no fresh address is tried (nor spent)
    await expect(loadPack()).rejects.toThrow('Failed to fetch');
    await expect(loadPack()).rejects.toThrow('Failed to fetch');
    expect(net.importAt).not.toHaveBeenCalled();
    net.online.up = true;
    const module = (await loadPack()) as { texts: string };
    expect(module.texts).toBe(`arabic from ${url}?retry=1`);
    expect(await loadPack()).toBe(module);
    expect(load).toHaveBeenCalledTimes(4);
    expect(net.importAt.mock.calls.map(([address]) => address)).toEqual([`${url}?retry=1`]);
  });

  it('a fresh address that fails too is followed by another, up to FRESH_ADDRESSES', async () => {
    const net = network();
    net.online.up = true;
    net.importAt.mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'));
    const loadPack = loadOnce(cachedFailure(), url, net);
    for (let call = 0; call < FRESH_ADDRESSES + 3; call += 1) await expect(loadPack()).rejects.toThrow('Failed');
    expect(net.importAt.mock.calls.map(([address]) => address)).toEqual(
      Array.from({ length: FRESH_ADDRESSES }, (_, index) => `${url}?retry=${index + 1}`),
    );
  });

  it('a browser that fetches the address again needs no fresh one', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue('module');
    const net = network();
    const loadPack = loadOnce(load, url, net);
    await expect(loadPack()).rejects.toThrow();
    expect(await loadPack()).toBe('module');
    expect(net.reachable).not.toHaveBeenCalled();
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
