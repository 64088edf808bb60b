/**
 * How many account exports (GET /api/account/export) run at once on this instance: at most
 * `perClinician` for one account (EXPORTS_PER_CLINICIAN) and `perInstance` in all (EXPORTS_PER_INSTANCE).
 * An export holds little memory (data-export.ts) but a core's worth of zlib and JSON work while it runs;
 * the caps keep a burst of them, or one clinician pressing the button again and again, from taking the
 * instance. Each instance counts its own (a memory and CPU bound of the process, not of the service).
 */
/**
 * The defaults. An export holds a few MB at most but keeps a core busy with zlib and JSON for seconds: 4
 * at once leave a 2-core instance (the Helm chart's 512 MiB) answering everyone else meanwhile, and one per
 * account is all a clinician needs (the button makes one ZIP).
 */
export const DEFAULT_EXPORTS_PER_INSTANCE = 4;
export const DEFAULT_EXPORTS_PER_CLINICIAN = 1;

export interface ExportLimits {
  perClinician: number;
  perInstance: number;
}

export type ExportSlot =
  | { ok: true; /** Gives the slot back; a second call does nothing. */ release: () => void }
  | {
      ok: false;
      /** Which cap is full: the clinician's own (429) or the instance's (503). */ full: 'clinician' | 'instance';
    };

export function exportSlots(limits: ExportLimits) {
  const byClinician = new Map<string, number>();
  let running = 0;
  return {
    /** A slot for one export of `userId`'s account, or which cap is full. */
    take(userId: string): ExportSlot {
      const theirs = byClinician.get(userId) ?? 0;
      if (theirs >= limits.perClinician) return { ok: false, full: 'clinician' };
      if (running >= limits.perInstance) return { ok: false, full: 'instance' };
      byClinician.set(userId, theirs + 1);
      running += 1;
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          running -= 1;
          const left = (byClinician.get(userId) ?? 1) - 1;
          if (left > 0) byClinician.set(userId, left);
          else byClinician.delete(userId);
        },
      };
    },
    /** Exports running now, in all and of one account. */
    running: () => running,
    runningOf: (userId: string) => byClinician.get(userId) ?? 0,
  };
}
export type ExportSlots = ReturnType<typeof exportSlots>;
