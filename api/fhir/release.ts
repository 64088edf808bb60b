import { version } from '../../package.json';

/** The release this server is (package.json's version), as the FHIR export's Provenance names it. */
export const RELEASE_VERSION: string = version;
