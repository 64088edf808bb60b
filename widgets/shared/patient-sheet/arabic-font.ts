// The Arabic font of the patient sheet: a subset of Noto Naskh Arabic (OFL.txt beside it; made by
// scripts/build-arabic-font.mjs), inlined into a chunk of its own that a page fetches only when an Arabic sheet is
// made (docs/engineering-notes.md#arabic-in-pdfs). Inlined rather than a separate .ttf file: a chunk is what a page on
// another origin can load (the element bundles' chunks carry CORS headers) and what the offline page precaches.

/** The TTF as base64, for jsPDF's addFileToVFS. */
export async function loadArabicFont(): Promise<string> {
  const { default: dataUrl } = await import('./NotoNaskhArabic-sheet.ttf?inline');
  return dataUrl.slice(dataUrl.indexOf(',') + 1);
}
