import type pg from 'pg';
import { loadPg } from './load-pg.js';
import type { Logger } from '../logging/logger.js';

/** The one PostgreSQL channel every Gatehouse instance of a database listens on. */
export const CHANGE_CHANNEL = 'gatehouse_changes';

/** What changed: a topic (`config`, `signing-keys`, …) and a short payload (a revision id). */
export interface Change {
  topic: string;
  payload: string;
}

export interface ChangeFeedHandlers {
  onChange: (change: Change) => void;
  /**
   * The feed is (again) connected: notifications sent while it was not are lost, so what they would have said
   * must be read again. Called after the first connection too.
   */
  onConnected: () => void;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
/** A connection that died without a word (a cable pulled) is found by a round trip this often. */
const HEARTBEAT_MS = 5_000;

/**
 * Notifications between the instances of one PostgreSQL database (LISTEN/NOTIFY) on a connection of its own:
 * pooled connections are shared, LISTEN belongs to a session. Lost connections are reopened with a growing
 * delay, and each reconnection is announced so listeners catch up on what they missed.
 */
export class ChangeFeed {
  readonly #subscribers = new Set<ChangeFeedHandlers>();
  #client: pg.Client | undefined;
  #retryMs = FIRST_RETRY_MS;
  #timer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;
  #connected = false;
  #lostLogged = false;
  /** Loading pg before the first connection: a second subscriber must not open another one meanwhile. */
  #loadingDriver = false;

  constructor(
    private readonly connectionString: string,
    private readonly location: string,
    private readonly logger: Logger,
  ) {}

  /** Starts listening (once); each subscriber hears of connections from now on. */
  subscribe(handlers: ChangeFeedHandlers): () => void {
    this.#subscribers.add(handlers);
    if (this.#connected) handlers.onConnected();
    else if (!this.#client && !this.#timer && !this.#loadingDriver) void this.#connect();
    return () => this.#subscribers.delete(handlers);
  }

  get connected(): boolean {
    return this.#connected;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearInterval(this.#heartbeat);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch((error: unknown) => {
      this.logger.debug({ err: error }, 'the change feed connection did not close cleanly');
    });
  }

  async #connect(): Promise<void> {
    this.#loadingDriver = true;
    const driver = await loadPg().finally(() => (this.#loadingDriver = false));
    if (this.#closed) return;
    const client = new driver.Client({ connectionString: this.connectionString, keepAlive: true });
    this.#client = client;
    let ended = false;
    const lost = (error?: unknown) => {
      if (ended) return;
      ended = true;
      this.#dropped(client, error);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL || message.payload === undefined) return;
      const change = parseChange(message.payload);
      if (change) for (const subscriber of this.#subscribers) subscriber.onChange(change);
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch (error) {
      lost(error);
      return;
    }
    // Closed, or the connection lost, while it was being opened: nothing to announce.
    if (!this.#isCurrent(client)) return;
    this.#connected = true;
    this.#retryMs = FIRST_RETRY_MS;
    if (this.#lostLogged) this.logger.info({ database: this.location }, 'change notifications resumed');
    this.#lostLogged = false;
    this.#heartbeat = setInterval(() => {
      client.query('select 1').catch(lost);
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
    for (const subscriber of this.#subscribers) subscriber.onConnected();
  }

  /** Still the feed's connection: not closed, nor lost and replaced, meanwhile (awaits in between). */
  #isCurrent(client: pg.Client): boolean {
    return !this.#closed && this.#client === client;
  }

  #dropped(client: pg.Client, error: unknown): void {
    clearInterval(this.#heartbeat);
    this.#connected = false;
    if (this.#client === client) this.#client = undefined;
    client.end().catch((closing: unknown) => {
      this.logger.debug({ err: closing }, 'a lost change feed connection did not close cleanly');
    });
    if (this.#closed) return;
    if (!this.#lostLogged) {
      this.logger.warn(
        { err: error, database: this.location },
        'change notifications from other instances are interrupted; reconnecting (missed changes are read then)',
      );
      this.#lostLogged = true;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#connect();
    }, this.#retryMs);
    this.#timer.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS);
  }
}

/** `topic:payload`; anything else (another program on the channel) is ignored. */
function parseChange(text: string): Change | undefined {
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  return { topic: text.slice(0, colon), payload: text.slice(colon + 1) };
}

export function changeText(change: Change): string {
  return `${change.topic}:${change.payload}`;
}
