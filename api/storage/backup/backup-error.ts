/** A backup or restore that must stop, with one line for the operator (never a password). */
export class BackupError extends Error {
  override name = 'BackupError';
}
