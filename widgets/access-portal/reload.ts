/**
 * How logout reloads the page (docs/product.md §4). An object, so a test can replace `reload` with
 * `vi.spyOn(reloadPage, 'reload')` instead of touching the read-only `window.location`.
 */
export const reloadPage = {
  reload(): void {
    globalThis.location?.reload();
  },
  /** Leaves for another address (the hospital sign-in's end of session). */
  leave(url: string): void {
    globalThis.location?.assign(url);
  },
};
