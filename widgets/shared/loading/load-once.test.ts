import { describe, expect, it, vi } from 'vitest';
import { FRESH_ADDRESSES, freshAddress, importedAddress, loadOnce } from './load-once.ts';

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
  // a built loader, as it reads in its chunk (its text names the chunk it imports), and that chunk's address
  const base = 'https://reversal.example.org/assets/lang-packs-9z8y.js';
  const url = 'https://reversal.example.org/assets/arabic-pack-1a2b.js';
  // the module map's answer for the chunk's own address, whatever the network does now
  const cachedFailure = () => {
    const load = vi.fn(async (): Promise<{ texts: string }> => {
      throw new TypeError(`Failed to fetch dynamically imported module: ${url}`);
    });
    load.toString = () => '()=>import(`./arabic-pack-1a2b.js`)';
    return load;
  };
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
    const loadPack = loadOnce(load, base, net);
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
    const loadPack = loadOnce(cachedFailure(), base, net);
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
    const loadPack = loadOnce(load, base, net);
    await expect(loadPack()).rejects.toThrow();
    expect(await loadPack()).toBe('module');
    expect(net.reachable).not.toHaveBeenCalled();
  });

  it('without the chunk’s address (no base, or a loader that names none) a retry only imports again', async () => {
    for (const [load, at] of [
      [cachedFailure(), undefined],
      [vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))), base],
    ] as const) {
      const net = network();
      net.online.up = true;
      const loadPack = loadOnce(load, at, net);
      await expect(loadPack()).rejects.toThrow();
      await expect(loadPack()).rejects.toThrow();
      expect(load).toHaveBeenCalledTimes(2);
      expect(net.importAt).not.toHaveBeenCalled();
    }
  });
});

describe('importedAddress: the chunk a built loader imports', () => {
  const base = 'https://reversal.example.org/widgets/0.1.0/sgx-dose-calculator.js';
  const loader = (text: string) => Object.assign(() => undefined, { toString: () => text });
  it.each([
    [
      '()=>import(`./chunks/arabic-pack-1a2b.js`)',
      'https://reversal.example.org/widgets/0.1.0/chunks/arabic-pack-1a2b.js',
    ],
    ['() => import("../x-2.js")', 'https://reversal.example.org/widgets/x-2.js'],
    [
      '()=>__vitePreload(()=>import("./open-card-C3.js"),__vite__mapDeps([0,1]),import.meta.url)',
      'https://reversal.example.org/widgets/0.1.0/open-card-C3.js',
    ],
  ])('%s', (text, address) => {
    expect(importedAddress(loader(text), base)).toBe(address);
  });
  it('none for a loader that names no chunk (a test mock, the dev server’s rewritten import)', () => {
    expect(importedAddress(loader('() => __vite_ssr_dynamic_import__("./x.ts")'), base)).toBeUndefined();
    expect(importedAddress(loader('() => load()'), base)).toBeUndefined();
    expect(importedAddress(loader('()=>import("./x.js")'), undefined)).toBeUndefined();
  });
  it('the fresh address keeps the query the chunk had', () => {
    expect(freshAddress('/assets/arabic-pack-1a2b.js?v=3', 2)).toBe('/assets/arabic-pack-1a2b.js?v=3&retry=2');
  });
});
