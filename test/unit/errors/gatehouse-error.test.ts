import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CommandError, UsageError } from '../../../src-server/cli/usage-error.js';
import { DataDirLockedError } from '../../../src-server/core/data-dir/data-dir-lock.js';
import { GatehouseError } from '../../../src-server/core/errors/gatehouse-error.js';
import { HttpProblem } from '../../../src-server/core/http/problem.js';
import {
  AddressInUseError,
  bindServer,
  closeGracefully,
  listen,
} from '../../../src-server/core/net/listener.js';

const OWNER = { pid: 1, hostname: 'workstation', command: 'serve', startedAt: '2026-01-01T00:00:00Z' };

describe('GatehouseError', () => {
  it('is what the CLI, the data dir lock and HTTP problems raise, each with its code', () => {
    const locked = new DataDirLockedError('/data', OWNER);
    for (const [error, code] of [
      [new UsageError('--port takes a number'), 'GH_ERR_USAGE'],
      [new CommandError('file unreadable'), 'GH_ERR_COMMAND_FAILED'],
      [locked, 'GH_ERR_DATA_DIR_LOCKED'],
      [new HttpProblem('GH_ERR_NOT_FOUND'), 'GH_ERR_NOT_FOUND'],
    ] as const) {
      expect(error).toBeInstanceOf(GatehouseError);
      expect(error.code).toBe(code);
    }
  });

  it('keeps the code of the error a CommandError reports', () => {
    const locked = new DataDirLockedError('/data', OWNER);
    const reported = new CommandError(locked.message, locked);
    expect(reported.code).toBe('GH_ERR_DATA_DIR_LOCKED');
    expect(reported.cause).toBe(locked);
  });

  it('takes its status from the code: an HttpProblem cannot disagree with the registry', () => {
    const problem = new HttpProblem('GH_ERR_LEGACY_AGENT_GROUP', 'legacy', {
      extensions: { code: 'forged' },
    });
    expect(problem.status).toBe(422);
    expect(problem.toProblem('/x', 'trace')).toMatchObject({
      status: 422,
      code: 'GH_ERR_LEGACY_AGENT_GROUP',
    });
  });

  it('raises AddressInUseError for a port another listener holds', async () => {
    const first = await listen(() => undefined, '127.0.0.1', 0);
    try {
      const error = await bindServer(createServer(), '127.0.0.1', first.port, () => 'taken').catch(
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(AddressInUseError);
      expect(error).toMatchObject({ code: 'GH_ERR_ADDRESS_IN_USE', message: 'taken' });
    } finally {
      await closeGracefully(first.server);
    }
  });
});
