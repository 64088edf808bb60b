/**
 * Numbers typed in Arabic: Arabic-Indic digits (٠١٢٣٤٥٦٧٨٩, U+0660–U+0669), the Extended Arabic-Indic
 * digits of Persian and Urdu keyboards (۰–۹, U+06F0–U+06F9) and the Arabic decimal separator (٫, U+066B)
 * become Western digits and a point, so "٧٠" reads as 70 and "٦٥٫٣" as 65.3. Nothing else changes.
 */
const ARABIC_INDIC_ZERO = 0x0660;
const EXTENDED_ARABIC_INDIC_ZERO = 0x06f0;
const ARABIC_DECIMAL_SEPARATOR = '\u066b';

export function toWesternDigits(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - ARABIC_INDIC_ZERO))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - EXTENDED_ARABIC_INDIC_ZERO))
    .replaceAll(ARABIC_DECIMAL_SEPARATOR, '.');
}

/**
 * A whole number with a comma between thousands, as en-US writes it: 2500 → "2,500", 1000000 → "1,000,000".
 * Written out rather than `toLocaleString('en-US')`: a page's first Intl call loads the browser's locale data
 * (about 40 ms on a desktop, four times that on a phone), and these texts are built when the page loads.
 */
export function groupThousands(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`groupThousands takes a whole number, not ${value}`);
  return String(value).replace(/\B(?=(\d{3})+$)/g, ',');
}
