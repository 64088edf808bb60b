/** The CycloneDX version of the SBOM `npm run sbom` writes. */
export const SBOM_SPEC_VERSION: string;
/**
 * Writes a CycloneDX SBOM (JSON) of the production dependencies to `outFile` (default
 * dist/site/sbom.cdx.json) and returns its path; throws with cyclonedx-npm's message when it cannot.
 */
export function writeSbom(outFile?: string): string;
