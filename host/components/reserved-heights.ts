import type { Lang } from '../content/types.ts';

/** The three tools on the page, by the element each is. */
export type Tool = 'dose' | 'advisor' | 'roi';

/**
 * Each row: up to `maxWidth` px of viewport (the last row: any wider), the height (px) of each element, as
 * measured at `measuredAt` px (a common width in the row's range, where the e2e checks it again).
 */
type ReservedHeights = readonly { maxWidth: number | null; measuredAt: number; px: Record<Tool, number> }[];

/**
 * The height each element renders at, by viewport width and page language (Arabic wraps differently),
 * measured in Chromium; within a row's range it varies by up to about 15%. It is reserved while the element
 * is not yet defined, since the page defines each as the reader comes near it (host/elements.ts): the box is
 * the right size before the element upgrades, and nothing below it moves then. e2e/prerendered-page.e2e.ts
 * checks every row against the rendered elements.
 */
export const RESERVED_HEIGHTS: Readonly<Record<Lang, ReservedHeights>> = {
  en: [
    { maxWidth: 350, measuredAt: 340, px: { dose: 1160, advisor: 1480, roi: 2700 } },
    { maxWidth: 380, measuredAt: 375, px: { dose: 1040, advisor: 1420, roi: 2600 } },
    { maxWidth: 420, measuredAt: 412, px: { dose: 997, advisor: 1380, roi: 2430 } },
    { maxWidth: 500, measuredAt: 480, px: { dose: 960, advisor: 1100, roi: 2250 } },
    { maxWidth: 660, measuredAt: 600, px: { dose: 760, advisor: 990, roi: 1740 } },
    { maxWidth: 800, measuredAt: 768, px: { dose: 690, advisor: 980, roi: 1640 } },
    { maxWidth: 980, measuredAt: 900, px: { dose: 940, advisor: 990, roi: 1200 } },
    { maxWidth: 1150, measuredAt: 1024, px: { dose: 770, advisor: 890, roi: 1010 } },
    { maxWidth: null, measuredAt: 1280, px: { dose: 733, advisor: 875, roi: 1001 } },
  ],
  ar: [
    { maxWidth: 350, measuredAt: 340, px: { dose: 1130, advisor: 1527, roi: 2900 } },
    { maxWidth: 380, measuredAt: 370, px: { dose: 1059, advisor: 1473, roi: 2760 } },
    { maxWidth: 420, measuredAt: 400, px: { dose: 1005, advisor: 1420, roi: 2600 } },
    { maxWidth: 500, measuredAt: 460, px: { dose: 975, advisor: 1145, roi: 2430 } },
    { maxWidth: 660, measuredAt: 600, px: { dose: 753, advisor: 1008, roi: 1840 } },
    { maxWidth: 800, measuredAt: 740, px: { dose: 733, advisor: 997, roi: 1680 } },
    { maxWidth: 980, measuredAt: 900, px: { dose: 953, advisor: 1071, roi: 1337 } },
    { maxWidth: 1150, measuredAt: 1060, px: { dose: 733, advisor: 964, roi: 1173 } },
    { maxWidth: null, measuredAt: 1280, px: { dose: 733, advisor: 934, roi: 1073 } },
  ],
};
