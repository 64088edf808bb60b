import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Every document a source file cites must be in the repository, and every citation must resolve.
 * The rule, checked on each line of every tracked .ts, .tsx, .mts, .mjs, .cjs and .js file (comments,
 * test names, anything):
 * - no mention of the documents kept outside the repository (OUT_OF_REPO below: the product spec,
 *   the clinical reference and the design notes, by their old names and paths);
 * - `docs/<path>` names a file or folder that exists;
 * - `docs/<file>.md#anchor`: the anchor is the GitHub slug of a heading of that file;
 * - a section sign appears only right after `docs/<file>.md`, followed by a number, a list or a range
 *   of numbers (SECTION_LIST below), and every number is a numbered heading (`## N. …`) of that file.
 * Markdown links between the files of docs/ (`[text](file.md#anchor)`) must resolve as well.
 */

export interface DocReferenceOffence {
  file: string;
  line: number;
  message: string;
}

/** What the check knows of one document under docs/: its heading slugs and numbered sections. */
export interface DocIndexEntry {
  slugs: ReadonlySet<string>;
  sections: ReadonlySet<number>;
}
/** Keyed by the path relative to the repository root (`docs/product.md`). */
export type DocIndex = ReadonlyMap<string, DocIndexEntry>;

const SOURCE_FILE = /\.(ts|tsx|mts|mjs|cjs|js)$/;
const SKIPPED_FOLDER = /(^|\/)(node_modules|dist)\//;
const SECTION_SIGN = '\u00a7';

/** Mentions of the documents that live outside the repository, with what to cite instead. */
const OUT_OF_REPO: readonly { pattern: RegExp; instead: string }[] = [
  {
    pattern: /shared\/(spec|design)\b[\w./-]*/gi,
    instead: 'docs/product.md, docs/clinical-reference.md or docs/engineering-notes.md',
  },
  {
    pattern: new RegExp(`(?<![\\w./-])(product[- ])?spec\\s*${SECTION_SIGN}\\s*\\d*`, 'gi'),
    instead: 'docs/product.md',
  },
  { pattern: new RegExp(`(?<![\\w./-])ref\\s*${SECTION_SIGN}\\s*\\d*`, 'gi'), instead: 'docs/clinical-reference.md' },
  {
    // The file name anywhere outside docs/; in prose ("the clinical reference") only with a section number.
    pattern: new RegExp(
      `(?<!docs\\/)(?<![\\w-])(clinical[-]reference\\b(\\.md)?(\\s*${SECTION_SIGN}\\s*\\d*)?|clinical ` +
        `reference\\s*${SECTION_SIGN}\\s*\\d*)`,
      'gi',
    ),
    instead: 'docs/clinical-reference.md',
  },
  { pattern: /(?<![\w-])product[-]spec\b(\.md)?/gi, instead: 'docs/product.md' },
  { pattern: /(?<![\w-])(widgets|server|architecture|style)\.md\b/gi, instead: 'docs/engineering-notes.md' },
  { pattern: /(?<![\w-])measured[-]notes[\w.-]*/gi, instead: 'docs/engineering-notes.md' },
];

/** `docs/<path>`, not part of a longer path (`stories/docs/…`, `../docs/…` are code paths). */
const DOCS_PATH = /(?<![\w./-])docs\/([\w./-]*\w)(#[\w-]*)?/g;
/** A number or a range after a section sign: `5`, `2–5`, `1-4`. */
const SECTION_ITEM = '(\\d+)(?:\\s*[-\u2013]\\s*(\\d+))?';
/** `docs/<file>.md` then section signs with numbers, separated by commas, slashes or `and`; ranges with a dash. */
const SECTION_REF = `${SECTION_SIGN}\\s*${SECTION_ITEM}`;
const SECTION_LIST = new RegExp(
  `(?<![\\w./-])docs\\/([\\w./-]*\\w\\.md)\\s+(${SECTION_REF}(?:\\s*(?:,|\\/|and|&)\\s*${SECTION_REF})*)`,
  'g',
);

/**
 * GitHub's heading anchor: the heading's text, lower-case, punctuation and symbols dropped except
 * `-` and `_`, each space a hyphen (github-slugger). Links and inline code count by their text.
 */
export function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown document (duplicates get `-1`, `-2`, as on GitHub) and its `N.` sections. */
export function indexMarkdown(markdown: string): DocIndexEntry {
  const slugs = new Set<string>();
  const sections = new Set<number>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const fenceMark = /^\s*(```|~~~)/.exec(line)?.[1];
    if (fenceMark) {
      fence = fence === undefined ? fenceMark : fence === fenceMark ? undefined : fence;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = headingSlug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
    const number = /^(\d+)\.\s/.exec(heading)?.[1];
    if (number !== undefined) sections.add(Number(number));
  }
  return { slugs, sections };
}

/** The numbers a section list names, ranges expanded (2–5 and 7 give 2, 3, 4, 5, 7). */
function sectionNumbers(list: string): number[] {
  const numbers: number[] = [];
  for (const item of list.matchAll(new RegExp(`${SECTION_SIGN}\\s*${SECTION_ITEM}`, 'g'))) {
    const first = Number(item[1]);
    const last = item[2] === undefined ? first : Number(item[2]);
    for (let n = first; n <= Math.max(first, last); n += 1) numbers.push(n);
  }
  return numbers;
}

/**
 * The offences of one source file. `exists` says whether a path relative to the repository root
 * exists; `docs` indexes the Markdown files under docs/.
 */
export function checkSourceText(
  file: string,
  text: string,
  docs: DocIndex,
  exists: (relativePath: string) => boolean,
): DocReferenceOffence[] {
  const offences: DocReferenceOffence[] = [];
  text.split('\n').forEach((line, index) => {
    const report = (message: string) => offences.push({ file, line: index + 1, message });

    // Each mention is reported once: its text is blanked before the next pattern and the last check.
    let rest = line;
    let citesOutside = false;
    for (const { pattern, instead } of OUT_OF_REPO) {
      for (const found of rest.matchAll(pattern)) {
        citesOutside = true;
        report(`"${found[0].trim()}" cites a document outside the repository; cite ${instead}`);
        rest = rest.replace(found[0], ' '.repeat(found[0].length));
      }
    }

    for (const match of line.matchAll(DOCS_PATH)) {
      const target = `docs/${match[1]}`;
      const anchor = match[2]?.slice(1);
      if (!exists(target)) {
        report(`${target} does not exist`);
        continue;
      }
      if (anchor === undefined) continue;
      const entry = docs.get(target);
      if (!entry) report(`${target}#${anchor}: anchors are checked only in Markdown files under docs/`);
      else if (!entry.slugs.has(anchor)) report(`${target}#${anchor}: no heading of ${target} has this anchor`);
    }

    // Section numbers must belong to a docs/ file that has them; any other section sign is a citation
    // of something a reader of the repository cannot open.
    for (const match of line.matchAll(SECTION_LIST)) {
      const target = `docs/${match[1]}`;
      const entry = docs.get(target);
      rest = rest.replace(match[0], '');
      if (!entry) {
        if (exists(target)) report(`${target}: section numbers are checked only in Markdown files under docs/`);
        continue;
      }
      for (const n of sectionNumbers(match[2]!)) {
        if (!entry.sections.has(n)) report(`${target} ${SECTION_SIGN}${n}: ${target} has no heading "${n}. …"`);
      }
    }
    // (A line that already cites an outside document has its section numbers reported with it.)
    if (rest.includes(SECTION_SIGN) && !citesOutside) {
      report(
        `a section sign not written as "docs/<file>.md ${SECTION_SIGN}N": name the document in docs/ it belongs to`,
      );
    }
  });
  return offences;
}

/** Relative Markdown links between the files of docs/ (`[text](product.md#5-validation-rules)`). */
export function checkDocsLinks(
  file: string,
  markdown: string,
  docs: DocIndex,
  exists: (relativePath: string) => boolean,
): DocReferenceOffence[] {
  const offences: DocReferenceOffence[] = [];
  const folder = path.posix.dirname(file);
  markdown.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\]\(([^)\s]*)\)/g)) {
      const href = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) continue; // another site, or a site path
      const [target = '', anchor] = href.split('#');
      const resolved = target === '' ? file : path.posix.normalize(path.posix.join(folder, target));
      const report = (message: string) => offences.push({ file, line: index + 1, message });
      if (!exists(resolved)) report(`links to ${resolved}, which does not exist`);
      else if (anchor !== undefined && docs.has(resolved) && !docs.get(resolved)!.slugs.has(anchor)) {
        report(`links to ${resolved}#${anchor}: no heading of ${resolved} has this anchor`);
      }
    }
  });
  return offences;
}

/** The tracked files (git ls-files), without node_modules/ and dist/, that are still on disk. */
export function trackedFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listed
    .split('\0')
    .filter((file) => file !== '' && !SKIPPED_FOLDER.test(file))
    .filter((file) => existsSync(path.join(root, file)) && statSync(path.join(root, file)).isFile());
}

/** Checks the whole repository at `root`; an empty list means every citation resolves. */
export function checkRepository(root: string): DocReferenceOffence[] {
  const files = trackedFiles(root);
  const exists = (relativePath: string) => existsSync(path.join(root, relativePath));
  const docs = new Map<string, DocIndexEntry>();
  const markdown = new Map<string, string>();
  // Every Markdown file under docs/ on disk, tracked or not yet: a citation may point at it.
  const docsDir = path.join(root, 'docs');
  const docsFiles = existsSync(docsDir) ? readdirSync(docsDir, { recursive: true, encoding: 'utf8' }) : [];
  for (const file of docsFiles.filter((f) => f.endsWith('.md')).map((f) => `docs/${f.split(path.sep).join('/')}`)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    markdown.set(file, text);
    docs.set(file, indexMarkdown(text));
  }
  const offences: DocReferenceOffence[] = [];
  for (const file of files.filter((f) => SOURCE_FILE.test(f))) {
    offences.push(...checkSourceText(file, readFileSync(path.join(root, file), 'utf8'), docs, exists));
  }
  for (const [file, text] of markdown) offences.push(...checkDocsLinks(file, text, docs, exists));
  return offences;
}

/** `file:line: message`, one offence a line. */
export function formatOffences(offences: readonly DocReferenceOffence[]): string {
  return offences.map(({ file, line, message }) => `${file}:${line}: ${message}`).join('\n');
}
