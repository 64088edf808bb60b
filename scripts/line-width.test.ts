import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { trackedFiles } from './doc-references.ts';

// Prettier keeps code within the print width but leaves long strings and comments alone; this holds
// every line of code to it. Data files (page content, message catalogues, clinical texts, PDF texts)
// are prose and may run longer.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PRINT_WIDTH = (JSON.parse(readFileSync(path.join(root, '.prettierrc.json'), 'utf8')) as { printWidth: number })
  .printWidth;
const CODE = /\.(ts|tsx|mjs|cjs|js|css|html)$/;
const DATA = new RegExp(
  '^(host/content/|widgets/shared/lang/messages/|clinical/(dose|patient-sheet)-texts\\.ts$|host/pdfs/documents\\.ts$)',
);

describe('line width', () => {
  it(`no line of code is over ${PRINT_WIDTH} characters (data files aside)`, () => {
    const files = trackedFiles(root).filter((file) => CODE.test(file) && !DATA.test(file));
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (line.length > PRINT_WIDTH ? [`${file}:${index + 1} (${line.length})`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
