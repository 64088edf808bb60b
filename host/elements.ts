import { loadOnce } from '../widgets/shared/loading/load-once.ts';
import { documentLang } from './content/context.ts';

/** The language packs' loader (widgets/shared/lang/lang-packs.ts), with the first element's code. */
const loadLangPacks = loadOnce(() => import('../widgets/shared/lang/lang-packs.ts'), import.meta.url);

/** One of the product page's custom elements: its tag, and its code, a chunk of its own fetched when first needed. */
export interface PageElement {
  tag: string;
  load: () => Promise<() => CustomElementConstructor>;
}

/**
 * An element's code with its texts in the page's language (widgets/shared/lang/lang-packs.ts: English comes with
 * the code, Arabic is a chunk of its own), fetched together so that the element renders at once in the page's
 * language when it is defined. Texts that fail to arrive do not hold the element back: it shows English until
 * they can be fetched (lang-packs.ts).
 */
function inPageLanguage<M>(
  code: () => Promise<M>,
  definer: (module: M) => () => CustomElementConstructor,
): PageElement['load'] {
  return async () => {
    const texts = loadLangPacks()
      .then(({ loadLangPack }) => loadLangPack(documentLang()))
      .catch(() => undefined);
    const [module] = await Promise.all([code(), texts]);
    return definer(module);
  };
}

/** The page's elements, the bar's access control first (host/elements.test.ts checks each defines its tag). */
export const PAGE_ELEMENTS: readonly PageElement[] = [
  {
    tag: 'sgx-access-portal',
    load: inPageLanguage(
      loadOnce(() => import('../widgets/access-portal/element.ts'), import.meta.url),
      (module) => module.defineAccessPortal,
    ),
  },
  {
    tag: 'sgx-dose-calculator',
    load: inPageLanguage(
      loadOnce(() => import('../widgets/dose-calculator/element.ts'), import.meta.url),
      (module) => module.defineDoseCalculator,
    ),
  },
  {
    tag: 'sgx-bradycardia-advisor',
    load: inPageLanguage(
      loadOnce(() => import('../widgets/bradycardia-advisor/element.ts'), import.meta.url),
      (module) => module.defineBradycardiaAdvisor,
    ),
  },
  {
    tag: 'sgx-roi-calculator',
    load: inPageLanguage(
      loadOnce(() => import('../widgets/roi-calculator/element.ts'), import.meta.url),
      (module) => module.defineRoiCalculator,
    ),
  },
];

/**
 * How far beyond the screen an element is defined: one screen height above and below, so that it has
 * rendered before a reader scrolling towards it (or following a link to its section) sees it.
 */
export const DEFINE_AHEAD = '100% 0px';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Defines each element once one of its instances comes within a screen of the viewport, or at the first
 * Tab key (a keyboard user moves through every control), or when the page is about to be printed. An
 * upgrade renders a whole form into a shadow root (40 to 50 ms on a phone), so the page does it only for
 * the tools a reader reaches, one per task, and fetches each element's code only then. A chunk that fails
 * to load (offline before the service worker holds it) is tried again when the browser is back online.
 * Returns the cleanup.
 */
export function defineElementsAsReached(elements: readonly PageElement[] = PAGE_ELEMENTS): () => void {
  const waiting = new Map(elements.map((element) => [element.tag, element]));
  const instancesOf = (tag: string) => [...document.getElementsByTagName(tag)];
  let defining = Promise.resolve();
  /** Elements whose code failed to load: watched again once the browser is back online. */
  const retries = new Set<PageElement>();
  const onOnline = () => {
    retries.forEach(watch);
    retries.clear();
  };

  const reach = (element: PageElement) => {
    if (!waiting.delete(element.tag)) return;
    for (const instance of instancesOf(element.tag)) observer.unobserve(instance);
    const loading = element.load(); // fetched now, in parallel with any other; defined in turn
    loading.catch(() => undefined); // a failure is handled in turn below, not reported as unhandled first
    defining = defining.then(async () => {
      try {
        const define = await loading;
        await nextTask();
        define();
        await nextTask();
      } catch {
        waiting.set(element.tag, element);
        retries.add(element);
      }
    });
  };
  const watch = (element: PageElement) => {
    for (const instance of instancesOf(element.tag)) observer.observe(instance);
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const element = entry.isIntersecting ? waiting.get(entry.target.localName) : undefined;
        if (element) reach(element);
      }
    },
    { rootMargin: DEFINE_AHEAD },
  );
  const reachAll = () => [...waiting.values()].forEach(reach);
  // Tab moves through the page's controls, the elements' too: they must all be there (each defined in
  // its own task still), or the first Tab past a tool not yet reached would skip it.
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Tab') reachAll();
  };

  elements.forEach(watch);
  window.addEventListener('beforeprint', reachAll);
  window.addEventListener('keydown', onKey, { capture: true, passive: true });
  window.addEventListener('online', onOnline);
  return () => {
    observer.disconnect();
    window.removeEventListener('beforeprint', reachAll);
    window.removeEventListener('keydown', onKey, { capture: true });
    window.removeEventListener('online', onOnline);
  };
}
