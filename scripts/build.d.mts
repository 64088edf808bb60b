export function buildSite(siteDir?: string): Promise<{ siteDir: string; widgetsDir: string }>;
export function buildAll(): Promise<{ siteDir: string; widgetsDir: string; sbomFile: string; serverFile: string }>;
