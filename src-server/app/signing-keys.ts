import type { SigningKeySet } from '../control/identity/signing-key-set.js';
import type { Logger } from '../core/logging/logger.js';
import type { Database } from '../core/storage/database.js';
import type { JobLease } from '../core/storage/job-lease.js';

/** The topic of the notification a rotation sends to the other instances on the database. */
const SIGNING_KEYS_TOPIC = 'signing-keys';
const RELOAD_EVERY_MS = 60_000;
const ROTATION_CHECK_EVERY_MS = 60 * 60_000;

/**
 * Keeps this instance's copy of the key set current: at once when another instance rotated (notification), and
 * every minute anyway (a lost notification; a new key signs only an hour after it is published). Returns the stop.
 */
export function followSigningKeys(database: Database, keys: SigningKeySet, logger: Logger): () => void {
  const reload = () => {
    keys.reload().catch((error: unknown) => {
      logger.warn(
        { err: error },
        'the signing keys could not be read again; the ones read before stay in use',
      );
    });
  };
  const timer = setInterval(reload, RELOAD_EVERY_MS);
  timer.unref();
  const unsubscribe = database.subscribe({
    onChange: (change) => {
      if (change.topic === SIGNING_KEYS_TOPIC) reload();
    },
    onConnected: reload,
  });
  return () => {
    clearInterval(timer);
    unsubscribe();
  };
}

/**
 * Rotation is a background job: checked hourly on the instance holding the jobs (at once when it takes them
 * over), which tells the others when it made a key. The returned stop waits for a check in progress.
 */
export function scheduleKeyRotation(options: {
  database: Database;
  keys: SigningKeySet;
  lease: JobLease;
  logger: Logger;
}): () => Promise<void> {
  const { database, keys, lease, logger } = options;
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    if (!lease.held) return;
    running = keys
      .rotateIfDue()
      .then(async (rotated) => {
        if (!rotated) return;
        logger.info('a new signing key is published; it signs tokens in an hour');
        await database.transaction((trx) =>
          database.notify(trx, { topic: SIGNING_KEYS_TOPIC, payload: 'new' }),
        );
      })
      .catch((error: unknown) => logger.error({ err: error }, 'the signing key rotation failed'));
  };
  run();
  const stopListening = lease.onAcquired(run);
  const timer = setInterval(run, ROTATION_CHECK_EVERY_MS);
  timer.unref();
  return async () => {
    stopListening();
    clearInterval(timer);
    await running;
  };
}
