import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { version } from '../../../package.json';
import { atPlainAddress, noteAlreadyDefined, RELEASE, recordDefinition, reportChunkFailure } from './releases.ts';

// What each bundle records on the page (globalThis, shared by every bundle and release) and says once.
const DEFINITIONS = Symbol.for('sgx.definitions.v1');
const WARNED = Symbol.for('sgx.definitions-warned.v1');
const global = globalThis as unknown as Record<symbol, Map<string, { release: string; url: string }> | undefined>;

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  delete global[DEFINITIONS];
  delete global[WARNED];
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());

const said = () => warn.mock.calls.map((call) => String(call[0]));

describe('releases on one page', () => {
  it("knows its release: package.json's version", () => {
    expect(RELEASE).toBe(version);
  });

  it('the same release again (another bundle, or the same one): nothing to say', () => {
    recordDefinition('sgx-x', 'https://p.example/widgets/sgx-x.js');
    noteAlreadyDefined('sgx-x', 'https://p.example/widgets/sgx-x.js');
    noteAlreadyDefined('sgx-x', 'https://p.example/widgets/sgx-widgets.js');
    expect(said()).toEqual([]);
  });

  it('another release: one warning naming both, however many tags and bundles', () => {
    global[DEFINITIONS] = new Map([
      ['sgx-x', { release: '0.0.1', url: 'https://p.example/widgets/0.0.1/sgx-widgets.js' }],
      ['sgx-y', { release: '0.0.1', url: 'https://p.example/widgets/0.0.1/sgx-widgets.js' }],
    ]);
    noteAlreadyDefined('sgx-x', 'https://p.example/widgets/sgx-widgets.js');
    noteAlreadyDefined('sgx-y', 'https://p.example/widgets/sgx-widgets.js');
    expect(said()).toEqual([
      'Two releases of the sgx elements on one page: 0.0.1 (https://p.example/widgets/0.0.1/sgx-widgets.js) and ' +
        `${RELEASE} (https://p.example/widgets/sgx-widgets.js). Elements are defined by the first to load (0.0.1); ` +
        'the other is downloaded for nothing. Load one release per page.',
    ]);
  });

  it('a tag defined by a script that recorded nothing (a release before this one): said once', () => {
    noteAlreadyDefined('sgx-x', 'https://p.example/widgets/sgx-x.js');
    noteAlreadyDefined('sgx-x', 'https://p.example/widgets/sgx-x.js');
    expect(said()).toEqual([
      `<sgx-x> was already defined by another script (an earlier release of these elements?), so release ` +
        `${RELEASE} (https://p.example/widgets/sgx-x.js) is not used. Load one release of the elements per page.`,
    ]);
  });

  it('one file under two addresses: said once', () => {
    recordDefinition('sgx-x', 'https://p.example/widgets/sgx-x.js');
    noteAlreadyDefined('sgx-x', `https://p.example/widgets/${RELEASE}/sgx-x.js`);
    expect(said()).toEqual([
      `The sgx elements' sgx-x.js was loaded twice, as https://p.example/widgets/sgx-x.js and as ` +
        `https://p.example/widgets/${RELEASE}/sgx-x.js: load it once.`,
    ]);
  });
});

describe('a part loaded on demand that could not be loaded', () => {
  it('is said once per file, naming the elements of this bundle and the file', () => {
    recordDefinition('sgx-x', 'https://p.example/widgets/sgx-x.js');
    const failure = new TypeError('Failed to fetch dynamically imported module: https://p.example/widgets/chunks/a.js');
    reportChunkFailure(failure);
    reportChunkFailure(failure);
    reportChunkFailure(new TypeError('Failed to fetch dynamically imported module: https://p.example/chunks/b.js'));
    expect(said()).toHaveLength(2);
    expect(said()[0]).toMatch(
      new RegExp(
        `^<sgx-x>.* \\(release ${RELEASE.replaceAll('.', '\\.')}\\): a part loaded on demand could not be loaded: ` +
          'Failed to fetch dynamically imported module: https://p\\.example/widgets/chunks/a\\.js\\. ',
      ),
    );
    expect(said()[0]).toContain('/widgets/embed.json');
  });
});

describe('atPlainAddress', () => {
  it('defines at once when loaded by its plain address', () => {
    const define = vi.fn();
    atPlainAddress('https://p.example/widgets/sgx-x.js', define);
    expect(define).toHaveBeenCalledTimes(1);
  });

  it('with a query string, defines nothing itself and imports the plain address; failing that, defines', async () => {
    const define = vi.fn();
    // jsdom cannot import an https: module: the import fails, so this copy defines the elements itself
    atPlainAddress('https://p.example/widgets/sgx-x.js?ver=6.4', define);
    expect(define).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(define).toHaveBeenCalledTimes(1));
  });
});
