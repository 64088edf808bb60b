import { version } from '../../../package.json';

/** The release this code was built from (package.json's version; the versioned URLs carry it). */
export const RELEASE: string = version;

/** Who defined each tag: shared by every bundle on the page, whatever its release. */
const DEFINITIONS = Symbol.for('sgx.definitions.v1');
/** Warnings already given on this page, by their text: each is said once. */
const WARNED = Symbol.for('sgx.definitions-warned.v1');

export interface Definition {
  release: string;
  /** The file that defined the tag (import.meta.url of the bundle's code). */
  url: string;
}

const shared = <T>(key: symbol, make: () => T): T => {
  const global = globalThis as unknown as Record<symbol, T | undefined>;
  return (global[key] ??= make());
};
const definitions = () => shared(DEFINITIONS, () => new Map<string, Definition>());

function warnOnce(message: string) {
  const warned = shared(WARNED, () => new Set<string>());
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(message);
}

/** Tags this copy of the code defined (a message about a part it failed to load names them). */
const definedHere: string[] = [];
export const tagsDefinedHere = (): readonly string[] => definedHere;

/** Called when this code defines `tag`. */
export function recordDefinition(tag: string, url: string): void {
  definitions().set(tag, { release: RELEASE, url });
  definedHere.push(tag);
}

const withoutQuery = (url: string) => url.replace(/[?#].*$/, '');
const fileName = (url: string) => withoutQuery(url).replace(/^.*\//, '');

/**
 * Called when this code finds `tag` already defined by another script: the first definition wins, so a
 * page that loads two releases runs only one of them, and downloads the other for nothing. Said once in
 * the console, naming both.
 */
export function noteAlreadyDefined(tag: string, url: string): void {
  const first = definitions().get(tag);
  if (!first) {
    warnOnce(
      `<${tag}> was already defined by another script (an earlier release of these elements?), so release ` +
        `${RELEASE} (${url}) is not used. Load one release of the elements per page.`,
    );
  } else if (first.release !== RELEASE) {
    warnOnce(
      `Two releases of the sgx elements on one page: ${first.release} (${first.url}) and ${RELEASE} ` +
        `(${url}). Elements are defined by the first to load (${first.release}); the other is downloaded ` +
        `for nothing. Load one release per page.`,
    );
  } else if (first.url !== url && fileName(first.url) === fileName(url)) {
    warnOnce(`The sgx elements' ${fileName(url)} was loaded twice, as ${first.url} and as ${url}: load it once.`);
  }
}

/**
 * Runs a bundle's `define` at the bundle's plain address. The parts it loads later (the Arabic texts, the
 * emergency card…) import the bundle by its address without a query string or fragment; loaded as
 * `sgx-dose-calculator.js?ver=6.4` (a CMS adding its own), they would run a second copy of it, whose state
 * (the language packs, the session) the elements do not see. So that copy defines nothing and imports the
 * plain address, which defines the elements; should that fail (a server that needs the query), it defines
 * them itself.
 */
export function atPlainAddress(url: string, define: () => void): void {
  const plain = withoutQuery(url);
  if (plain === url) {
    define();
    return;
  }
  import(/* @vite-ignore */ plain).catch(() => define());
}

/** Said once per failed file: the part of an element that loads on demand could not be loaded. */
export function reportChunkFailure(error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  const who = definedHere.length > 0 ? definedHere.map((tag) => `<${tag}>`).join(', ') : 'sgx elements';
  warnOnce(
    `${who} (release ${RELEASE}): a part loaded on demand could not be loaded: ${reason}. Either the ` +
      `network failed, or the browser refused the file: on a page that pins a release, the import map's ` +
      `"integrity" lists each file as /widgets/embed.json gives it, and a file that does not match is not run.`,
  );
}
