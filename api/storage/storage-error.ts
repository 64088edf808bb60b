/** A problem with the data directory that must stop start-up, with a message for the operator. */
export class StorageError extends Error {
  override name = 'StorageError';
}
