/**
 * FHIR_MRN_SYSTEM: the namespace of the hospital's medical record numbers, written as the `system` of the
 * Patient's MRN identifier in FHIR exports (docs/fhir.md#patient). FHIR wants an absolute URI; hospitals
 * use an OID (`urn:oid:2.16.840.1.113883.…`) or a URL of their own. Unset, the identifier carries its type
 * (MR) and value only.
 */
export function parseMrnSystem(value: string | undefined, fail: (message: string) => Error): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (isMrnSystem(text)) return text;
  throw fail(
    'FHIR_MRN_SYSTEM must be an absolute URI naming your hospital’s medical record numbers, such as ' +
      `urn:oid:2.16.840.1.113883.3.1234 or https://hospital.example.org/fhir/mrn (got "${value}")`,
  );
}

/** An OID (`urn:oid:` and dotted whole numbers), a UUID URN, or an http(s) URL without spaces or fragment. */
export function isMrnSystem(text: string): boolean {
  if (/^urn:oid:[0-2](\.(0|[1-9]\d*))+$/.test(text)) return true;
  if (/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(text)) return true;
  if (text.length > 255 || /[\s|#]/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
