import { randomUUID } from 'node:crypto';
import type { ChainSigner } from '../../core/audit/chain/chain-signer.js';
import {
  entriesToVerify,
  tenantsToVerify,
  verifyStoredChains,
} from '../../core/audit/chain/chain-verify-store.js';
import type {
  AuditChainVerification,
  AuditVerificationRun,
} from '../../core/contracts/audit-chain-schemas.js';
import { notFound } from '../../core/http/problem.js';
import type { Database } from '../../core/storage/database.js';
import type { Logger } from '../../core/logging/logger.js';

/** A finished run is kept this long for its caller to read the verdict. */
export const VERIFICATION_RUN_TTL_MS = 10 * 60_000;
/** Finished runs kept at most (the oldest go first). */
const MAX_FINISHED = 50;

interface Run extends AuditVerificationRun {
  finishedAt?: number;
}

/**
 * Verifications running in the background, so the console can show a large trail's progress (entries checked
 * of the total) and then the verdict. A run covers one tenant or all (`*`); a second start for the same
 * tenant while one runs joins it. Runs live in memory only.
 */
export class VerificationRuns {
  private readonly runs = new Map<string, Run>();
  private readonly closed = new AbortController();

  constructor(
    private readonly database: Database,
    private readonly signer: ChainSigner,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a run of `tenant` (or every tenant's, `*`), or joins the one running; answers with its total known. */
  async start(tenant: string): Promise<AuditVerificationRun> {
    this.evict();
    const running = [...this.runs.values()].find((run) => run.tenant === tenant && run.state === 'running');
    if (running) return running;
    const tenants = await tenantsToVerify(this.database, tenant);
    const counts = await entriesToVerify(this.database, tenants);
    const run: Run = {
      id: randomUUID(),
      tenant,
      state: 'running',
      startedAt: new Date(this.now()).toISOString(),
      progress: { checked: 0, total: [...counts.values()].reduce((sum, n) => sum + n, 0) },
    };
    this.runs.set(run.id, run);
    verifyStoredChains(
      this.database,
      this.signer.publicKey,
      tenant,
      (progress) =>
        (run.progress = { checked: progress.checked, total: progress.total, tenant: progress.tenant }),
      tenants,
    ).then(
      (items) => {
        const result: AuditChainVerification = {
          intact: items.every((item) => item.intact),
          publicKey: this.signer.publicKey,
          items,
        };
        this.finish(run, { state: 'done', result });
      },
      (error: unknown) => {
        if (!this.closed.signal.aborted)
          this.logger.warn({ err: error, tenant }, 'audit verification failed');
        this.finish(run, {
          state: 'failed',
          failure: 'The verification could not read the trail; the server log has the reason.',
        });
      },
    );
    return run;
  }

  get(id: string): AuditVerificationRun {
    const run = this.runs.get(id);
    if (!run) throw notFound(`No verification has the id ${id} (a finished one is kept for 10 minutes).`);
    const { finishedAt: _finishedAt, ...view } = run;
    return view;
  }

  close(): void {
    this.closed.abort();
  }

  private finish(run: Run, outcome: Pick<Run, 'state' | 'result' | 'failure'>): void {
    Object.assign(run, outcome, { finishedAt: this.now() });
  }

  private evict(): void {
    const finished = [...this.runs.values()].filter((run) => run.finishedAt !== undefined);
    const expired = finished.filter((run) => this.now() - run.finishedAt! > VERIFICATION_RUN_TTL_MS);
    const excess = finished
      .filter((run) => !expired.includes(run))
      .sort((a, b) => a.finishedAt! - b.finishedAt!)
      .slice(0, Math.max(0, finished.length - expired.length - MAX_FINISHED));
    for (const run of [...expired, ...excess]) this.runs.delete(run.id);
  }
}
