import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import type { SettingsSnapshot, SettingsSource } from '../../core/settings/settings.js';
import { closeGracefully, listen, type BoundListener } from '../../core/net/listener.js';

export interface ControlPanelBuild {
  handler: RequestListener;
  host: string;
  port: number;
}

/**
 * The Control Panel listener. `restart()` re-reads the settings and rebuilds the management app, which is how a
 * flag change takes effect; gateway listeners are not touched.
 */
export class ControlPanel {
  #bound?: BoundListener;
  #settings: SettingsSnapshot;
  #startedAt = new Date();
  #restartCount = 0;
  #restarting?: Promise<void>;

  constructor(
    private readonly source: SettingsSource,
    initialSettings: SettingsSnapshot,
    private readonly build: (settings: SettingsSnapshot) => ControlPanelBuild,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {
    this.#settings = initialSettings;
  }

  get settings(): SettingsSnapshot {
    return this.#settings;
  }

  get url(): string {
    if (!this.#bound) throw new Error('The Control Panel is not listening.');
    return this.#bound.url;
  }

  status(): { startedAt: string; restartCount: number } {
    return { startedAt: this.#startedAt.toISOString(), restartCount: this.#restartCount };
  }

  async start(): Promise<string> {
    const built = this.build(this.#settings);
    this.#bound = await listen(built.handler, built.host, built.port);
    this.#startedAt = this.now();
    return this.#bound.url;
  }

  /** Restarts after the current request's response has gone out (the old listener drains it first). */
  scheduleRestart(): void {
    setImmediate(() => {
      this.restart().catch((error: unknown) =>
        this.logger.error({ err: error }, 'Control Panel restart failed'),
      );
    });
  }

  restart(): Promise<void> {
    this.#restarting ??= this.#restart().finally(() => {
      this.#restarting = undefined;
    });
    return this.#restarting;
  }

  async #restart(): Promise<void> {
    const settings = await this.source.resolve();
    const built = this.build(settings);
    const previous = this.#bound;
    // An ephemeral port (0) keeps the port it got, so the console's URL survives the restart.
    const port = built.port === 0 && previous ? previous.port : built.port;
    this.logger.info('Control Panel restarting');
    if (previous) await closeGracefully(previous.server);
    this.#bound = undefined;
    let lastError: unknown;
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        this.#bound = await listen(built.handler, built.host, port);
        break;
      } catch (error) {
        lastError = error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    if (!this.#bound) throw lastError;
    this.#settings = settings;
    this.#startedAt = this.now();
    this.#restartCount++;
    this.logger.info({ url: this.#bound.url }, 'Control Panel restarted');
  }

  /** Stops accepting and lets requests in flight finish, for at most `drainMs` (by default 10 s). */
  async close(drainMs?: number): Promise<void> {
    await this.#restarting?.catch(() => undefined);
    if (this.#bound) await closeGracefully(this.#bound.server, drainMs);
    this.#bound = undefined;
  }
}
