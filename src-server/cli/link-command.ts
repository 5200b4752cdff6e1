import { parseArgs } from 'node:util';
import { Writable } from 'node:stream';
import { currentLockOwner } from '../core/data-dir/data-dir-lock.js';
import { dataDirLayout } from '../core/data-dir/default-data-dir.js';
import type { SignInLink } from '../core/contracts/session-schemas.js';
import { dataDirOption } from './offline-tenant.js';
import { tokenCommand } from './token-command.js';
import { CommandError } from './usage-error.js';

export const LINK_HELP = `gatehouse link [--roles R1,R2] [--user NAME] [--data-dir DIR]

Prints a fresh one-time link that signs a browser in to the console of the server running on the data dir
(gatehouse serve, npm start or the desktop app). It works once and for ten minutes. Like gatehouse token it
needs the data dir's keys, so it runs on the machine and as the user that runs the server.
Roles default to Operator; the user to your OS user name.`;

/** The token `gatehouse token` prints, to authenticate the request for a link (it lives two minutes). */
async function shortLivedToken(dataDir: string, roles: string, user: string | undefined): Promise<string> {
  let printed = '';
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      printed += chunk.toString();
      done();
    },
  });
  await tokenCommand(
    ['--data-dir', dataDir, '--roles', roles, '--ttl', '2m', ...(user ? ['--user', user] : [])],
    capture,
  );
  return printed.trim();
}

async function requestLink(controlPanelUrl: string, token: string): Promise<SignInLink> {
  let response: Response;
  try {
    response = await fetch(`${controlPanelUrl}/api/v1/session/sign-in-links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
  } catch (error) {
    throw new CommandError(
      `The server that holds the data dir does not answer at ${controlPanelUrl} (${(error as Error).message}).`,
    );
  }
  const body = (await response.json()) as SignInLink & { detail?: string };
  if (response.status !== 200) {
    throw new CommandError(`The server refused the sign-in link (${response.status}): ${body.detail ?? ''}`);
  }
  return body;
}

export async function linkCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      roles: { type: 'string', default: 'Operator' },
      user: { type: 'string' },
    },
    strict: true,
  });
  const dataDir = dataDirOption(values['data-dir']);
  const owner = await currentLockOwner(dataDirLayout(dataDir).lockFile);
  if (!owner?.controlPanelUrl) {
    throw new CommandError(
      `No Gatehouse server is running on the data dir ${dataDir}. Start it with "npm start" or ` +
        '"npx gatehouse serve" (which print a sign-in link themselves), or name its data dir with --data-dir.',
    );
  }
  const token = await shortLivedToken(dataDir, values.roles, values.user);
  const link = await requestLink(owner.controlPanelUrl, token);
  out.write(`Sign in to the console (one-time link, until ${link.expiresAt}): ${link.signInUrl}\n`);
}
