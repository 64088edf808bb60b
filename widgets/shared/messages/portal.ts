/** The access portal's strings (spec §2, §4, §5, §8). */
export const portal = {} as const;
