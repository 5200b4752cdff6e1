import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Makes a directory's entries (created, renamed, removed files) durable. Windows cannot open a directory
 * for fsync and its rename is already durable through NTFS's journal, so it is skipped there.
 */
export async function fsyncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `target` atomically and durably: write a sibling temp file, fsync it, rename it over the target, fsync
 * the directory. A crash leaves either the old file or the complete new one, never a mix.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array | readonly Uint8Array[],
  mode = 0o644,
): Promise<void> {
  const dir = path.dirname(target);
  await mkdir(dir, { recursive: true });
  const temporary = path.join(
    dir,
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const chunks = typeof data === 'string' ? [Buffer.from(data)] : data instanceof Uint8Array ? [data] : data;
  const handle = await open(temporary, 'w', mode);
  try {
    for (const chunk of chunks) await writeFully(handle, chunk, null);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch((unlinkError: unknown) => {
      throw new AggregateError([error, unlinkError], `Could not write ${target}`);
    });
    throw error;
  }
  await handle.close();
  await rename(temporary, target);
  await fsyncDirectory(dir);
}

interface Writable {
  write: (
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number | null,
  ) => Promise<{ bytesWritten: number }>;
}

/** `write` may write fewer bytes than asked; loop until everything is written. */
export async function writeFully(handle: Writable, data: Uint8Array, position: number | null): Promise<void> {
  let written = 0;
  while (written < data.length) {
    const { bytesWritten } = await handle.write(
      data,
      written,
      data.length - written,
      position === null ? null : position + written,
    );
    if (bytesWritten <= 0) throw new Error(`write returned ${bytesWritten} bytes`);
    written += bytesWritten;
  }
}

/** Reads exactly `length` bytes at `position`; fewer means the file is shorter than expected. */
export async function readExactly(
  handle: {
    read: (
      buffer: Buffer,
      offset: number,
      length: number,
      position: number,
    ) => Promise<{ bytesRead: number }>;
  },
  buffer: Buffer,
  length: number,
  position: number,
): Promise<number> {
  let total = 0;
  while (total < length) {
    const { bytesRead } = await handle.read(buffer, total, length - total, position + total);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return total;
}
