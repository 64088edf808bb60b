import { describe, expect, it } from 'vitest';
import { FRESH_ADDRESSES as LOADER_FRESH_ADDRESSES, freshAddress } from '../widgets/shared/loading/load-once.ts';
import { FRESH_ADDRESSES as DELIVERY_FRESH_ADDRESSES } from './build-delivery.mjs';
import { pinnedImportMap, pinnedSnippet, readmePinnedSnippet, withPinnedSnippet } from './embed-snippets.mjs';

const embed = {
  version: '1.2.3',
  elements: {
    'sgx-x': {
      url: '/widgets/1.2.3/sgx-x.js',
      integrity: 'sha384-entry',
      chunks: { '/widgets/1.2.3/chunks/a-1.js': 'sha384-a', '/widgets/1.2.3/chunks/b-2.js': 'sha384-b' },
    },
  },
  chunks: { '/widgets/1.2.3/chunks/a-1.js': 'sha384-a', '/widgets/1.2.3/chunks/b-2.js': 'sha384-b' },
};

describe('the pinned snippet', () => {
  it('pins the bundle and every chunk at the given origin, then loads the bundle with its integrity', () => {
    expect(pinnedImportMap(embed, 'sgx-x', 'https://p.example')).toEqual({
      integrity: {
        'https://p.example/widgets/1.2.3/sgx-x.js': 'sha384-entry',
        'https://p.example/widgets/1.2.3/chunks/a-1.js': 'sha384-a',
        'https://p.example/widgets/1.2.3/chunks/b-2.js': 'sha384-b',
      },
    });
    expect(pinnedSnippet(embed, 'sgx-x', 'https://p.example').split('\n').slice(-4)).toEqual([
      '<sgx-x></sgx-x>',
      '<script type="module" crossorigin="anonymous"',
      '  src="https://p.example/widgets/1.2.3/sgx-x.js"',
      '  integrity="sha384-entry"></script>',
    ]);
    expect(() => pinnedImportMap(embed, 'sgx-y')).toThrow('embed.json has no element sgx-y');
  });

  it('is written between the README markers and read back, the rest of the text untouched', () => {
    const readme = 'before\n<!-- pinned-embed:start (note) -->\n```html\nold\n```\n<!-- pinned-embed:end -->\nafter\n';
    const snippet = pinnedSnippet(embed, 'sgx-x');
    const written = withPinnedSnippet(readme, snippet);
    expect(readmePinnedSnippet(written)).toBe(snippet);
    expect(written.startsWith('before\n<!-- pinned-embed:start (note) -->\n```html\n')).toBe(true);
    expect(written.endsWith('```\n<!-- pinned-embed:end -->\nafter\n')).toBe(true);
    expect(withPinnedSnippet(written, snippet)).toBe(written);
    expect(() => readmePinnedSnippet('no markers')).toThrow('README.md has no <!-- pinned-embed:start');
  });
});

describe('retries of a pinned chunk', () => {
  it('embed.json lists as many fresh addresses of a chunk as an element tries (load-once.ts)', () => {
    expect(DELIVERY_FRESH_ADDRESSES).toBe(LOADER_FRESH_ADDRESSES);
    expect(freshAddress('/widgets/1.2.3/chunks/a-1.js', LOADER_FRESH_ADDRESSES)).toBe(
      `/widgets/1.2.3/chunks/a-1.js?retry=${DELIVERY_FRESH_ADDRESSES}`,
    );
  });
});
