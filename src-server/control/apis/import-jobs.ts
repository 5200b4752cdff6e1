import { randomUUID } from 'node:crypto';
import { ErrorCode, type HttpErrorCode } from '../../core/contracts/error-codes.js';
import type { ImportJobState } from '../../core/contracts/api-import-schemas.js';
import { HttpProblem, notFound } from '../../core/http/problem.js';
import type { ApiSourceRecord } from '../../core/model/config-model.js';
import type { ImportInput, ImportProgress, PreparedDocument } from './import-pipeline/import-types.js';

/** What a client sees of an import in progress. */
export interface ImportJobView {
  id: string;
  state: ImportJobState;
  progress: ImportProgress | null;
  source: ApiSourceRecord;
  startedAt: string;
  /** When `ready`: the description read, not applied yet. */
  prepared?: PreparedDocument;
  /** When `failed`: the problem answer the import would have got. */
  problem?: {
    status: number;
    code: HttpErrorCode;
    detail?: string;
    errors?: Record<string, string[]>;
    extensions: Record<string, unknown>;
  };
}

interface Job extends ImportJobView {
  owner: string;
  controller: AbortController;
  finishedAt?: number;
}

export type Prepare = (
  input: ImportInput,
  onProgress: (progress: ImportProgress) => void,
  signal: AbortSignal,
) => Promise<PreparedDocument>;

/** Imports running or waiting to be applied at once, over all callers. */
export const MAX_IMPORT_JOBS = 4;
/** A read description waits this long to be applied, then it is dropped. */
export const IMPORT_JOB_TTL_MS = 15 * 60_000;

/**
 * Imports the console starts, follows (progress), cancels and applies in steps: read and validated in the
 * background, applied once the admin has seen the warnings and, for a re-import, the changes. Jobs live in
 * memory only and belong to the caller who started them.
 */
export class ApiImportJobs {
  private readonly jobs = new Map<string, Job>();

  constructor(
    private readonly prepare: Prepare,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(owner: string, input: ImportInput): ImportJobView {
    this.evict();
    if (this.jobs.size >= MAX_IMPORT_JOBS) {
      throw new HttpProblem(
        ErrorCode.GH_ERR_TOO_MANY_IMPORTS,
        `At most ${MAX_IMPORT_JOBS} imports can be in progress at once; finish or cancel one first.`,
      );
    }
    const job: Job = {
      id: randomUUID(),
      owner,
      state: 'running',
      progress: null,
      source: sourceOf(input),
      startedAt: this.now().toISOString(),
      controller: new AbortController(),
    };
    this.jobs.set(job.id, job);
    this.prepare(input, (progress) => (job.progress = progress), job.controller.signal).then(
      (prepared) => {
        this.finish(job, { state: 'ready', prepared });
      },
      (error: unknown) => {
        this.finish(job, job.controller.signal.aborted ? { state: 'cancelled' } : failureOf(error));
      },
    );
    return job;
  }

  get(owner: string, id: string): ImportJobView {
    const job = this.jobs.get(id);
    if (!job || job.owner !== owner) throw notFound(`No import has the id ${id}.`);
    return job;
  }

  /** Stops a running import, or drops a read one; either way the job is gone. */
  cancel(owner: string, id: string): void {
    const job = this.get(owner, id) as Job;
    job.controller.abort();
    this.jobs.delete(job.id);
  }

  /** The read description of a `ready` job; the job is dropped once `apply` succeeds. */
  async apply<R>(owner: string, id: string, apply: (prepared: PreparedDocument) => Promise<R>): Promise<R> {
    const job = this.get(owner, id);
    if (job.state !== 'ready' || !job.prepared) {
      throw new HttpProblem(
        ErrorCode.GH_ERR_IMPORT_NOT_READY,
        `The import is ${job.state}, not ready to be applied.`,
        {
          extensions: { state: job.state },
        },
      );
    }
    const result = await apply(job.prepared);
    this.jobs.delete(id);
    return result;
  }

  close(): void {
    for (const job of this.jobs.values()) job.controller.abort();
    this.jobs.clear();
  }

  private finish(job: Job, outcome: Partial<ImportJobView>): void {
    if (!this.jobs.has(job.id)) return;
    Object.assign(job, outcome, { finishedAt: this.now().getTime() });
  }

  /** Drops expired jobs; at capacity, failed ones and then the oldest read ones make room (running ones never). */
  private evict(): void {
    const cutoff = this.now().getTime() - IMPORT_JOB_TTL_MS;
    for (const [id, job] of this.jobs) {
      if (job.finishedAt !== undefined && job.finishedAt < cutoff) this.jobs.delete(id);
    }
    const finished = [...this.jobs.values()]
      .filter((job) => job.finishedAt !== undefined)
      .sort(
        (a, b) => Number(a.state === 'ready') - Number(b.state === 'ready') || a.finishedAt! - b.finishedAt!,
      );
    while (this.jobs.size >= MAX_IMPORT_JOBS && finished.length > 0) this.jobs.delete(finished.shift()!.id);
  }
}

function sourceOf(input: ImportInput): ApiSourceRecord {
  if (input.kind === 'url') return { kind: 'url', url: input.url, name: input.url };
  if (input.kind === 'file') return { kind: 'file', name: input.path };
  return { kind: 'upload', ...(input.fileName ? { name: input.fileName } : {}) };
}

/** A failed job keeps the problem a synchronous import would have answered with. */
function failureOf(error: unknown): Partial<ImportJobView> {
  if (error instanceof HttpProblem) {
    const { status, code, detail, errors, extensions } = error;
    return {
      state: 'failed',
      problem: { status, code, ...(detail ? { detail } : {}), ...(errors ? { errors } : {}), extensions },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    state: 'failed',
    problem: { status: 500, code: ErrorCode.GH_ERR_INTERNAL, detail: message, extensions: {} },
  };
}
