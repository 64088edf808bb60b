export interface WrittenPdf {
  /** File name at the site root, e.g. "hcp-guide.pdf". */
  file: string;
  /** Absolute path written. */
  path: string;
  /** Size in bytes. */
  bytes: number;
}
/** Renders every static PDF (host/pdfs/generate.ts) into `outDir` (default dist/site) and lists them. */
export function buildPdfs(outDir?: string): Promise<WrittenPdf[]>;
