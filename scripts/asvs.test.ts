import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/asvs.md maps the product to OWASP ASVS 5.0 (V6, V7, V10, V16), one list item per requirement:
//
//   - **6.2.1** L1 **met**: "at least 8 characters in length". Why, in words.
//     - `api/auth/auth.test.ts`
//       - `accepts passwords of exactly 8 and 128 characters`
//
// The status is **met**, **not applicable** or **not met**; under it, the tests that show it: a test file, then the
// name of each test (or describe) as its source writes it, template placeholders and all. This holds the page to the
// standard (every requirement of the four chapters once, with its level), to itself (the summary counts the lines; a
// "met" names a test; a "not met" says what is needed) and to the repository (every file named exists, and every name
// is a whole string literal of that file: a test that is renamed or removed fails here).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = 'docs/asvs.md';

/**
 * ASVS 5.0.0's sections of the four chapters, each the levels of its requirements in order (OWASP/ASVS, tag
 * v5.0.0_release, 5.0/en/0x15-V6-Authentication.md, 0x16-V7-Session-Management.md, 0x19-V10-OAuth-and-OIDC.md,
 * 0x25-V16-Security-Logging-and-Error-Handling.md): '122' is 6.1.1 at L1, 6.1.2 and 6.1.3 at L2.
 */
const LEVELS: Readonly<Record<string, string>> = {
  '6.1': '122',
  '6.2': '111111112222',
  '6.3': '11223333',
  '6.4': '112233',
  '6.5': '22222333',
  '6.6': '2223',
  '6.7': '33',
  '6.8': '2222',
  '7.1': '222',
  '7.2': '1111',
  '7.3': '22',
  '7.4': '11222',
  '7.5': '223',
  '7.6': '22',
  '10.1': '22',
  '10.2': '223',
  '10.3': '22223',
  '10.4': '1111122222233333',
  '10.5': '22222',
  '10.6': '22',
  '10.7': '222',
  '16.1': '2',
  '16.2': '22222',
  '16.3': '2222',
  '16.4': '222',
  '16.5': '2223',
};
const CHAPTERS = ['6', '7', '10', '16'] as const;

/** Every requirement id with its level ('L1'…), in the standard's order. */
const EXPECTED: ReadonlyMap<string, string> = new Map(
  Object.entries(LEVELS).flatMap(([section, levels]) =>
    [...levels].map((level, index) => [`${section}.${index + 1}`, `L${level}`] as const),
  ),
);

const STATUSES = ['met', 'not applicable', 'not met'] as const;
type Status = (typeof STATUSES)[number];

const REQUIREMENT = /^- \*\*(\d+\.\d+\.\d+)\*\* (L[123]) \*\*(met|not applicable|not met)\*\*(.*)$/;
/** Any line that begins like a requirement (to report one that is not written as REQUIREMENT). */
const REQUIREMENT_LIKE = /^- \*\*\d+\.\d+/;
const TEST_FILE = /^ {2}- `([^`]+)`$/;
const TEST_NAME = /^ {4}- `(.+)`$/;
const SUMMARY_ROW = /^\| V(\d+) [^|]*\| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$/;

interface Cited {
  file: string;
  line: number;
  names: { name: string; line: number }[];
}
interface Requirement {
  id: string;
  level: string;
  status: Status;
  line: number;
  text: string;
  tests: Cited[];
}

/** The requirements of the page, and what is wrong with its form (as `line: message`). */
function parsePage(markdown: string): {
  requirements: Requirement[];
  offences: string[];
  summary: Map<string, number[]>;
} {
  const requirements: Requirement[] = [];
  const offences: string[] = [];
  const summary = new Map<string, number[]>();
  let current: Requirement | undefined;
  markdown.split('\n').forEach((text, index) => {
    const line = index + 1;
    const report = (message: string) => offences.push(`${PAGE}:${line}: ${message}`);
    const requirement = REQUIREMENT.exec(text);
    const file = TEST_FILE.exec(text);
    const name = TEST_NAME.exec(text);
    const row = SUMMARY_ROW.exec(text);
    if (requirement) {
      const [, id, level, status, rest] = requirement as unknown as [string, string, string, Status, string];
      current = { id, level, status, line, text: rest, tests: [] };
      requirements.push(current);
    } else if (REQUIREMENT_LIKE.test(text)) {
      current = undefined;
      report('a requirement is written "- **<id>** L<level> **met**|**not applicable**|**not met**: <why>"');
    } else if (file) {
      if (!current) report(`\`${file[1]}\` is not under a requirement`);
      else current.tests.push({ file: file[1]!, line, names: [] });
    } else if (name) {
      const cited = current?.tests.at(-1);
      if (!cited) report(`\`${name[1]}\` is not under a test file`);
      else cited.names.push({ name: name[1]!, line });
    } else if (row) {
      summary.set(row[1]!, row.slice(2).map(Number));
    } else if (/^#/.test(text) || (text !== '' && !text.startsWith('  '))) {
      current = undefined; // a heading or a paragraph ends the requirement above it
    } else if (current && text.startsWith('  ')) {
      current.text += ` ${text.trim()}`;
    }
  });
  return { requirements, offences, summary };
}

/**
 * Every offence of the page, `docs/asvs.md:<line>: <message>`; none when it is sound. `readSource` answers the text
 * of a file of the repository (a path relative to its root), or undefined when there is no such file.
 */
export function checkAsvsPage(markdown: string, readSource: (file: string) => string | undefined): string[] {
  const { requirements, offences, summary } = parsePage(markdown);
  const at = (line: number, message: string) => offences.push(`${PAGE}:${line}: ${message}`);

  const seen = new Map<string, number>();
  for (const requirement of requirements) {
    const { id, level, status, line, text, tests } = requirement;
    const expected = EXPECTED.get(id);
    if (!expected) at(line, `${id} is not a requirement of ASVS 5.0's V6, V7, V10 or V16`);
    else if (expected !== level) at(line, `${id} is ${expected} in ASVS 5.0, not ${level}`);
    const first = seen.get(id);
    if (first !== undefined) at(line, `${id} appears twice (lines ${first} and ${line})`);
    else seen.set(id, line);
    if (!/^: \S/.test(text)) at(line, `${id}: say why after the status ("**${status}**: …")`);
    if (status === 'met' && tests.length === 0) at(line, `${id} is met but names no test that shows it`);
    if (status === 'not met' && !/\bNeeded\b/.test(text))
      at(line, `${id} is not met: say what is needed ("Needed: …")`);
    for (const cited of tests) {
      const source =
        /\.test\.tsx?$/.test(cited.file) && !cited.file.includes('..') ? readSource(cited.file) : undefined;
      if (source === undefined) {
        at(cited.line, `${cited.file} does not exist, or is not a test file (*.test.ts, *.test.tsx)`);
        continue;
      }
      if (cited.names.length === 0) at(cited.line, `${cited.file}: name the tests of it that show ${id}`);
      for (const { name, line: nameLine } of cited.names) {
        const literal = ["'", '"', '`'].some((quote) => source.includes(`${quote}${name}${quote}`));
        if (!literal) at(nameLine, `no test named "${name}" in ${cited.file}`);
      }
    }
  }
  for (const id of EXPECTED.keys()) if (!seen.has(id)) offences.push(`${PAGE}: ${id} is missing`);

  for (const chapter of CHAPTERS) {
    const of = requirements.filter((requirement) => requirement.id.split('.')[0] === chapter);
    const counted = [of.length, ...STATUSES.map((status) => of.filter((entry) => entry.status === status).length)];
    const written = summary.get(chapter);
    if (written?.join() !== counted.join())
      offences.push(
        `${PAGE}: the summary's V${chapter} row must read ${counted.join(', ')} (requirements, met, not ` +
          `applicable, not met), not ${written?.join(', ') ?? 'nothing'}`,
      );
  }
  return offences;
}

const readRepositoryFile = (file: string) => {
  const full = path.join(root, file);
  return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined;
};

describe('docs/asvs.md', () => {
  it('has every requirement of V6, V7, V10 and V16 once, with its level, and every test it names exists', () => {
    expect(checkAsvsPage(readFileSync(path.join(root, PAGE), 'utf8'), readRepositoryFile)).toEqual([]);
  });
});

describe('the check', () => {
  const SOURCES: Record<string, string> = {
    'api/x.test.ts': [
      "describe('a group', () => {",
      "  it('does the thing', () => {});",
      '  it(`takes ${LIMIT} at most`, () => {});',
      '});',
    ].join('\n'),
    'api/x.ts': "export const name = 'does the thing';",
  };
  const readSource = (file: string) => SOURCES[file];

  /** A whole page: every requirement not applicable, but those given (their lines after the id and level). */
  function page(changes: Record<string, string[]> = {}, extra: string[] = []): string {
    const lines: string[] = [];
    const counts = new Map<string, number[]>();
    for (const [id, level] of EXPECTED) {
      const item = changes[id] ?? ['**not applicable**: none here.'];
      lines.push(`- **${id}** ${level} ${item[0]}`, ...item.slice(1));
      const chapter = id.split('.')[0]!;
      const status = STATUSES.findIndex((name) => item[0]!.startsWith(`**${name}**`));
      const count = counts.get(chapter) ?? [0, 0, 0, 0];
      count[0]! += 1;
      if (status >= 0) count[status + 1]! += 1;
      counts.set(chapter, count);
    }
    const summary = CHAPTERS.map((chapter) => `| V${chapter} the chapter | ${counts.get(chapter)!.join(' | ')} |`);
    return ['| chapter | requirements | met | not applicable | not met |', ...summary, '', ...lines, ...extra].join(
      '\n',
    );
  }
  const check = (markdown: string) => checkAsvsPage(markdown, readSource);
  const met = (...lines: string[]) => ['**met**: it is.', ...lines];

  it('passes a met line that names its tests, a describe and a template as written', () => {
    const markdown = page({
      '6.2.1': met(
        '  - `api/x.test.ts`',
        '    - `does the thing`',
        '    - `a group`',
        '    - `takes ${LIMIT} at most`',
      ),
      '6.2.2': ['**not met**: it is not.', '  Needed: a test.'],
    });
    expect(check(markdown)).toEqual([]);
  });

  it.each([
    ['a met line without a test', { '6.2.1': met() }, '6.2.1 is met but names no test that shows it'],
    ['a file that is not there', { '6.2.1': met('  - `api/y.test.ts`', '    - `x`') }, 'api/y.test.ts does not exist'],
    ['a file that is not a test', { '6.2.1': met('  - `api/x.ts`', '    - `does the thing`') }, 'not a test file'],
    ['a file without names', { '6.2.1': met('  - `api/x.test.ts`') }, 'name the tests of it that show 6.2.1'],
    ['a name not in the file', { '6.2.1': met('  - `api/x.test.ts`', '    - `does it`') }, 'no test named "does it"'],
    ['a part of a name', { '6.2.1': met('  - `api/x.test.ts`', '    - `the thing`') }, 'no test named "the thing"'],
    ['a not met without what is needed', { '6.2.1': ['**not met**: it is not.'] }, 'say what is needed'],
    ['a status without why', { '6.2.1': ['**not applicable**'] }, '6.2.1: say why after the status'],
  ])('fails: %s', (_name, changes, message) => {
    expect(check(page(changes)).join('\n')).toContain(message);
  });

  it('fails on a requirement twice, one missing, one of another level and one the standard does not have', () => {
    const markdown = page({}, ['- **6.2.1** L1 **not applicable**: again.'])
      .replace('- **7.4.5** L2 **not applicable**: none here.\n', '')
      .replace('- **6.1.1** L1 ', '- **6.1.1** L2 ')
      .concat('\n- **7.4.6** L2 **not applicable**: no such one.');
    const offences = check(markdown);
    expect(offences.join('\n')).toMatch(/6\.2\.1 appears twice \(lines \d+ and \d+\)/);
    expect(offences).toContain(`${PAGE}: 7.4.5 is missing`);
    expect(offences.join('\n')).toContain('6.1.1 is L1 in ASVS 5.0, not L2');
    expect(offences.join('\n')).toContain("7.4.6 is not a requirement of ASVS 5.0's V6, V7, V10 or V16");
  });

  it('fails on a requirement line of another form, a test outside one, and a summary that does not count', () => {
    const markdown = page({ '6.2.1': ['met: it is.'] })
      .replace('| V7 the chapter | 19 | 0 | 19 | 0 |', '| V7 the chapter | 19 | 1 | 18 | 0 |')
      .replace('| chapter |', '  - `api/x.test.ts`\n| chapter |');
    const offences = check(markdown).join('\n');
    expect(offences).toContain('a requirement is written "- **<id>** L<level>');
    expect(offences).toContain('`api/x.test.ts` is not under a requirement');
    expect(offences).toContain("the summary's V7 row must read 19, 0, 19, 0");
  });
});
