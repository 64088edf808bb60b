import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFINE_AHEAD, PAGE_ELEMENTS, defineElementsAsReached, type PageElement } from './elements.ts';

// jsdom has no layout, so no IntersectionObserver: this one is driven by the test (`reveal`), as the
// browser drives the real one. The landing and scrolling themselves are tested in Chromium (e2e/).
class TestObserver {
  static current: TestObserver | null = null;
  readonly observed = new Set<Element>();
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit,
  ) {
    TestObserver.current = this;
  }
  observe(target: Element) {
    this.observed.add(target);
  }
  unobserve(target: Element) {
    this.observed.delete(target);
  }
  disconnect() {
    this.observed.clear();
  }
}

/** The observer reports `tag`'s instances as within the margin, as the browser does when the reader nears them. */
function reveal(tag: string) {
  const observer = TestObserver.current!;
  const entries = [...observer.observed]
    .filter((target) => target.localName === tag)
    .map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry);
  observer.callback(entries, observer as unknown as IntersectionObserver);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A page element whose "code" records when it is defined. */
function fakeElement(tag: string, log: string[], fail = 0): PageElement {
  let failures = fail;
  return {
    tag,
    load: async () => {
      log.push(`load ${tag}`);
      if (failures-- > 0) throw new TypeError('Failed to fetch dynamically imported module');
      return () => {
        log.push(`define ${tag}`);
        return HTMLElement;
      };
    },
  };
}

beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', TestObserver);
  document.body.innerHTML = '<x-top></x-top><main><x-one></x-one><x-two></x-two></main>';
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('the page defines each element as the reader nears it', () => {
  it('watches every instance, one screen ahead, and defines nothing the reader has not reached', async () => {
    const log: string[] = [];
    const stop = defineElementsAsReached(['x-top', 'x-one', 'x-two'].map((tag) => fakeElement(tag, log)));
    expect(TestObserver.current!.options.rootMargin).toBe(DEFINE_AHEAD);
    expect([...TestObserver.current!.observed].map((element) => element.localName)).toEqual([
      'x-top',
      'x-one',
      'x-two',
    ]);
    await settle();
    expect(log).toEqual([]);
    reveal('x-two');
    await settle();
    expect(log).toEqual(['load x-two', 'define x-two']);
    // no longer watched: a second approach does nothing
    expect([...TestObserver.current!.observed].map((element) => element.localName)).toEqual(['x-top', 'x-one']);
    reveal('x-two');
    await settle();
    expect(log).toEqual(['load x-two', 'define x-two']);
    stop();
  });

  it('fetches what is reached at once, and defines one per task in the order reached', async () => {
    const log: string[] = [];
    const stop = defineElementsAsReached(['x-top', 'x-one', 'x-two'].map((tag) => fakeElement(tag, log)));
    reveal('x-one');
    reveal('x-top');
    expect(log).toEqual(['load x-one', 'load x-top']);
    await Promise.resolve();
    expect(log).toEqual(['load x-one', 'load x-top']); // defining waits for a task of its own
    await settle();
    expect(log).toEqual(['load x-one', 'load x-top', 'define x-one', 'define x-top']);
    stop();
  });

  it('defines the rest at the first Tab, so the keyboard reaches every tool; other keys scroll as usual', async () => {
    const log: string[] = [];
    const stop = defineElementsAsReached(['x-top', 'x-one', 'x-two'].map((tag) => fakeElement(tag, log)));
    reveal('x-top');
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown' }));
    await settle();
    expect(log.filter((line) => line.startsWith('define'))).toEqual(['define x-top']);
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    // one element per task: on a busy machine that can take longer than a settle
    await vi.waitFor(() =>
      expect(log.filter((line) => line.startsWith('define'))).toEqual(['define x-top', 'define x-one', 'define x-two']),
    );
    stop();
  });

  it('defines the rest before the page is printed', async () => {
    const log: string[] = [];
    const stop = defineElementsAsReached(['x-top', 'x-one', 'x-two'].map((tag) => fakeElement(tag, log)));
    reveal('x-top');
    window.dispatchEvent(new Event('beforeprint'));
    // one element per task: on a busy machine that can take longer than a settle
    await vi.waitFor(() =>
      expect(log.filter((line) => line.startsWith('define'))).toEqual(['define x-top', 'define x-one', 'define x-two']),
    );
    stop();
  });

  it('code that failed to load (offline) is fetched again once the browser is back online', async () => {
    const log: string[] = [];
    const stop = defineElementsAsReached([fakeElement('x-one', log, 1)]);
    reveal('x-one');
    await settle();
    expect(log).toEqual(['load x-one']);
    // watched again after the "online" event, and reached when the observer reports it
    window.dispatchEvent(new Event('online'));
    reveal('x-one');
    await settle();
    expect(log).toEqual(['load x-one', 'load x-one', 'define x-one']);
    stop();
  });

  it('after the cleanup nothing is watched and neither printing, Tab nor coming online defines anything', async () => {
    const log: string[] = [];
    const stopFailing = defineElementsAsReached([fakeElement('x-two', log, 1)]);
    reveal('x-two');
    await settle();
    stopFailing();
    window.dispatchEvent(new Event('online'));
    expect(TestObserver.current!.observed.size).toBe(0); // the failed one is not watched again
    defineElementsAsReached([fakeElement('x-one', log)])();
    expect(TestObserver.current!.observed.size).toBe(0);
    window.dispatchEvent(new Event('beforeprint'));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    await settle();
    expect(log).toEqual(['load x-two']);
  });
});

describe('the page’s elements', () => {
  it('each one’s code defines the tag it is listed under, the bar’s access control first', async () => {
    expect(PAGE_ELEMENTS.map(({ tag }) => tag)).toEqual([
      'sgx-access-portal',
      'sgx-dose-calculator',
      'sgx-bradycardia-advisor',
      'sgx-roi-calculator',
    ]);
    for (const { tag, load } of PAGE_ELEMENTS) {
      const define = await load();
      expect([tag, define()]).toEqual([tag, customElements.get(tag)]);
    }
  });
});
