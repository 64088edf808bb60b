/**
 * Sessions that end when a clinician walks away (HIPAA 164.312(a)(2)(iii) automatic logoff; NIST SP 800-63B
 * AAL2: reauthenticate after 30 minutes of inactivity): a session with no request for the idle limit is
 * refused and ended, beside the token's 12-hour limit.
 *
 * The check reads the session row that every request reads anyway. The write is what costs: last use is
 * recorded only once it is a tenth of the idle limit old (at most once a minute), so a session ends between
 * 90 % and 100 % of the idle limit after its last request, never later.
 */
export const MAX_TOUCH_INTERVAL_MS = 60_000;

export const touchIntervalMs = (idleMs: number) => Math.min(MAX_TOUCH_INTERVAL_MS, Math.floor(idleMs / 10));

/** Whether a session last used at `lastUsedAt` has passed the idle limit at `at`. */
export const isIdle = (lastUsedAt: string, at: Date, idleMs: number) => at.getTime() - Date.parse(lastUsedAt) > idleMs;

/** Whether a request at `at` should record itself as the session's last use. */
export const shouldTouch = (lastUsedAt: string, at: Date, idleMs: number) =>
  at.getTime() - Date.parse(lastUsedAt) >= touchIntervalMs(idleMs);

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrom(e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*Safari\//, 'Safari'],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * What the profile's session list calls the device a session was opened on, from its User-Agent:
 * "Chrome on Windows", "Safari on iOS", or null when nothing is recognised (never the raw header).
 */
export function describeDevice(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}
