import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ranges from './fonts/ranges.json';

const root = path.resolve(import.meta.dirname, '..');

/** The files whose text the page and the elements show: content, catalogues, clinical texts, components. */
function shownTextFiles(): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) return walk(file);
      return /\.tsx?$/.test(entry.name) && !/\.(test|stories|d)\.tsx?$/.test(entry.name) ? [file] : [];
    });
  return [
    ...walk('host/content'),
    ...walk('host/components'),
    ...walk('widgets').filter((file) => file.includes('/messages/') || file.endsWith('.tsx')),
    ...walk('clinical/texts'),
    'contracts/api-messages.ts',
  ];
}

/** Invisible format characters (isolates, word joiner, marks): they are not drawn, whatever the font. */
const FORMAT = /[\u200b-\u200f\u2060-\u206f\ufeff]/u;
const covered = (code: number) => Object.values(ranges).some((list) => list.some(([a, b]) => code >= a! && code <= b!));

describe("the page's own fonts (host/fonts.ts)", () => {
  it('have every character the page and the elements write, so no machine font lays out any of it', () => {
    const missing = new Map<string, string>();
    for (const file of shownTextFiles()) {
      for (const character of readFileSync(path.join(root, file), 'utf8')) {
        const code = character.codePointAt(0)!;
        if (code < 0x20 || FORMAT.test(character) || covered(code)) continue;
        if (!missing.has(character)) missing.set(character, `U+${code.toString(16).toUpperCase()} in ${file}`);
      }
    }
    expect([...missing.values()]).toEqual([]);
  });

  it('fail on a character they lack (the check can fail)', () => {
    expect(covered('≥'.codePointAt(0)!)).toBe(true);
    expect(covered('★'.codePointAt(0)!)).toBe(false);
    expect(covered('Ω'.codePointAt(0)!)).toBe(false);
  });
});
