/** The ROI and safety calculator's strings (spec §2, §3, §5, §8, §9). */
export const roi = {} as const;
