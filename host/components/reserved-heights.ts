import type { Lang } from '../content/types.ts';

/** The three tools on the page, by the element each is. */
export type Tool = 'dose' | 'advisor' | 'roi';

/**
 * Each row: up to `maxWidth` px of viewport (the last row: any wider), the height (px) of each element, as
 * measured at `measuredAt` px (a common width in the row's range, where the e2e checks it again).
 */
type ReservedHeights = readonly { maxWidth: number | null; measuredAt: number; px: Record<Tool, number> }[];

/**
 * The height each element renders at, by viewport width and page language (Arabic wraps differently), in the
 * page's own fonts (host/fonts.ts: the same on every machine), measured in Chromium by
 * `node scripts/measure-reserved-heights.mjs` after `npm run build`; within a row's range it varies by up to
 * about 15%. It is reserved while the element is not yet defined, since the page defines each as the reader comes
 * near it (host/elements.ts): the box is the right size before the element upgrades, and nothing below it moves
 * then. e2e/prerendered-page.e2e.ts checks every row against the rendered elements.
 */
export const RESERVED_HEIGHTS: Readonly<Record<Lang, ReservedHeights>> = {
  en: [
    { maxWidth: 350, measuredAt: 340, px: { dose: 1045, advisor: 1420, roi: 2631 } },
    { maxWidth: 380, measuredAt: 375, px: { dose: 997, advisor: 1372, roi: 2372 } },
    { maxWidth: 420, measuredAt: 412, px: { dose: 973, advisor: 1320, roi: 2284 } },
    { maxWidth: 500, measuredAt: 480, px: { dose: 949, advisor: 1091, roi: 1965 } },
    { maxWidth: 660, measuredAt: 600, px: { dose: 729, advisor: 985, roi: 1719 } },
    { maxWidth: 800, measuredAt: 768, px: { dose: 710, advisor: 920, roi: 1610 } },
    { maxWidth: 980, measuredAt: 900, px: { dose: 929, advisor: 982, roi: 1142 } },
    { maxWidth: 1150, measuredAt: 1024, px: { dose: 733, advisor: 876, roi: 1001 } },
    { maxWidth: null, measuredAt: 1280, px: { dose: 669, advisor: 852, roi: 1001 } },
  ],
  ar: [
    { maxWidth: 350, measuredAt: 340, px: { dose: 1060, advisor: 1473, roi: 2864 } },
    { maxWidth: 380, measuredAt: 370, px: { dose: 1038, advisor: 1395, roi: 2616 } },
    { maxWidth: 420, measuredAt: 400, px: { dose: 973, advisor: 1373, roi: 2475 } },
    { maxWidth: 500, measuredAt: 460, px: { dose: 973, advisor: 1145, roi: 2209 } },
    { maxWidth: 660, measuredAt: 600, px: { dose: 729, advisor: 1008, roi: 1769 } },
    { maxWidth: 800, measuredAt: 740, px: { dose: 733, advisor: 997, roi: 1636 } },
    { maxWidth: 980, measuredAt: 900, px: { dose: 953, advisor: 1047, roi: 1241 } },
    { maxWidth: 1150, measuredAt: 1060, px: { dose: 733, advisor: 958, roi: 1073 } },
    { maxWidth: null, measuredAt: 1280, px: { dose: 709, advisor: 899, roi: 1029 } },
  ],
};
