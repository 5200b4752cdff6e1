import { readFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { writeFileAtomic } from '../storage/durable-fs.js';

/** lowdb adapter that fsyncs before the atomic rename, so an acknowledged change survives a crash. */
export class DurableJsonFile<T> implements Adapter<T> {
  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
  }

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new Error(
        `The configuration store ${this.#path} is not valid JSON (${(error as Error).message}).`,
        { cause: error },
      );
    }
  }

  async write(data: T): Promise<void> {
    await writeFileAtomic(this.#path, JSON.stringify(data, null, 2), 0o600);
  }
}
