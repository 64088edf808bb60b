import type { Pool } from 'pg';
import { eraseAccount } from '../account/routes.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { SYSTEM_ACTOR, type AuditLog } from '../storage/audit-log.ts';
import type { Store } from '../storage/store.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** How often the job looks for work: accounts whose grace period is over are erased within the hour. */
export const MAINTENANCE_INTERVAL_MS = HOUR_MS;
/** The history retention runs once a day across every instance sharing the store. */
export const HISTORY_RETENTION_EVERY_MS = DAY_MS;

/**
 * Runs a task on one instance at a time, at most once per `everyMs` across them: with PostgreSQL a
 * session advisory lock per task (an instance that does not get it skips the round) and the last run's
 * time in app_settings; with the embedded store the DATA_DIR lock already makes this the only instance,
 * so the last run is this process's own. Answers whether the task ran.
 */
export interface TaskCoordinator {
  runExclusive(task: MaintenanceTask, everyMs: number, work: () => Promise<void>, now: Date): Promise<boolean>;
}
export type MaintenanceTask = 'account-erasure' | 'history-retention';

const TASK_LOCK_KEYS: Record<MaintenanceTask, number> = {
  'account-erasure': 0x5367_7865, // "Sgxe"
  'history-retention': 0x5367_7872, // "Sgxr"
};

export function localCoordinator(): TaskCoordinator {
  const lastRun = new Map<MaintenanceTask, number>();
  let running = Promise.resolve();
  return {
    async runExclusive(task, everyMs, work, now) {
      const previous = lastRun.get(task);
      if (previous !== undefined && now.getTime() - previous < everyMs) return false;
      lastRun.set(task, now.getTime());
      const done = running.then(work);
      running = done.catch(() => {});
      await done;
      return true;
    },
  };
}

export function postgresCoordinator(pool: Pool): TaskCoordinator {
  return {
    async runExclusive(task, everyMs, work, now) {
      const client = await pool.connect();
      const key = TASK_LOCK_KEYS[task];
      let locked = false;
      try {
        locked = Boolean((await client.query('SELECT pg_try_advisory_lock($1) AS locked', [key])).rows[0]?.locked);
        if (!locked) return false;
        const setting = `maintenance_last_run:${task}`;
        const last = (await client.query('SELECT value FROM app_settings WHERE key = $1', [setting])).rows[0] as
          { value: string } | undefined;
        if (last && now.getTime() - Date.parse(last.value) < everyMs) return false;
        await work();
        await client.query(
          `INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2`,
          [setting, now.toISOString()],
        );
        return true;
      } finally {
        if (locked) await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => {});
        client.release();
      }
    },
  };
}

export interface MaintenanceDeps {
  store: Store;
  audit: AuditLog;
  limiter: SignInLimiter;
  coordinator: TaskCoordinator;
  now: () => Date;
  /** HISTORY_RETENTION_DAYS; undefined keeps history for ever. */
  historyRetentionDays?: number;
  log: (message: string) => void;
}

/**
 * One round of the jobs: accounts whose deletion's grace period is over are erased (one audit line each,
 * actor "system"), and once a day, with HISTORY_RETENTION_DAYS set, history entries older than the period
 * go with their exports (one audit line with the counts).
 */
export async function runMaintenance(deps: MaintenanceDeps): Promise<void> {
  const now = deps.now();
  await deps.coordinator.runExclusive(
    'account-erasure',
    0,
    async () => {
      for (const id of await deps.store.listAccountsDueForErasure(now.toISOString())) {
        const user = await deps.store.findUserById(id);
        if (!user) continue;
        if (await eraseAccount(deps, id, user.email, SYSTEM_ACTOR, null)) {
          deps.log(`Erased account ${id}: its deletion's grace period is over.`);
        }
      }
    },
    now,
  );
  const days = deps.historyRetentionDays;
  if (days === undefined) return;
  await deps.coordinator.runExclusive(
    'history-retention',
    HISTORY_RETENTION_EVERY_MS,
    async () => {
      const before = new Date(now.getTime() - days * DAY_MS).toISOString();
      const removed = await deps.store.removeHistoryBefore(before);
      await deps.audit.record(
        {
          actor: SYSTEM_ACTOR,
          action: 'history.retention',
          recordType: 'calculation',
          outcome: 'success',
          detail: { days, before, calculations: removed.calculations, exports: removed.exports },
        },
        null,
      );
      deps.log(
        `History retention (${days} days): removed ${removed.calculations} history entries and ${removed.exports} ` +
          `exports saved before ${before}.`,
      );
    },
    now,
  );
}

/** Runs a round shortly after start and then every MAINTENANCE_INTERVAL_MS; `stop` ends it. */
export function startMaintenance(deps: MaintenanceDeps, intervalMs = MAINTENANCE_INTERVAL_MS) {
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  const run = () => {
    if (stopped) return;
    round = runMaintenance(deps).catch((error: unknown) =>
      deps.log(`The maintenance job failed (it runs again in an hour): ${(error as Error).message}`),
    );
  };
  const first = setTimeout(run, 10_000);
  const timer = setInterval(run, intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await round;
    },
  };
}
