export const CHROMIUM_ARGS: string[];
export function chromePath(): string;
