import { randomUUID } from 'node:crypto';
import type { AppRegistrationRecord } from '../../core/model/config-model.js';
import type { ConfigStore } from '../../core/config-store/config-store.js';
import { generateSecret, hashSecret, verifySecret } from './secret-hash.js';

export interface AppRegistrationView {
  id: string;
  clientId: string;
  name: string;
  roles: string[];
  createdAt: string;
  secretUpdatedAt: string;
}

export function toView(record: AppRegistrationRecord): AppRegistrationView {
  const { secretHash: _hidden, ...view } = record;
  return view;
}

/** Client-credentials registrations of the built-in identity provider. Secrets are hashed at rest. */
export class AppRegistrations {
  constructor(
    private readonly store: ConfigStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(): AppRegistrationView[] {
    return this.store.data.appRegistrations.map(toView);
  }

  find(id: string): AppRegistrationRecord | undefined {
    return this.store.data.appRegistrations.find((r) => r.id === id);
  }

  nameOfClient(clientId: string): string | undefined {
    return this.store.data.appRegistrations.find((r) => r.clientId === clientId)?.name;
  }

  async create(
    name: string,
    roles: string[],
  ): Promise<{ registration: AppRegistrationView; clientSecret: string }> {
    const clientSecret = generateSecret();
    const secretHash = await hashSecret(clientSecret);
    const timestamp = this.now().toISOString();
    const record: AppRegistrationRecord = {
      id: randomUUID(),
      clientId: randomUUID(),
      name,
      roles,
      secretHash,
      createdAt: timestamp,
      secretUpdatedAt: timestamp,
    };
    await this.store.update((data) => {
      data.appRegistrations.push(record);
    });
    return { registration: toView(record), clientSecret };
  }

  async delete(id: string): Promise<AppRegistrationView | undefined> {
    return this.store.update((data) => {
      const index = data.appRegistrations.findIndex((r) => r.id === id);
      if (index === -1) return undefined;
      const [removed] = data.appRegistrations.splice(index, 1);
      return removed ? toView(removed) : undefined;
    });
  }

  async rotateSecret(
    id: string,
  ): Promise<{ registration: AppRegistrationView; clientSecret: string } | undefined> {
    const clientSecret = generateSecret();
    const secretHash = await hashSecret(clientSecret);
    const updated = await this.store.update((data) => {
      const record = data.appRegistrations.find((r) => r.id === id);
      if (!record) return undefined;
      record.secretHash = secretHash;
      record.secretUpdatedAt = this.now().toISOString();
      return toView(record);
    });
    return updated ? { registration: updated, clientSecret } : undefined;
  }

  /** The registration when the client id and secret match, otherwise undefined (same answer for both failures). */
  async verifyClient(clientId: string, clientSecret: string): Promise<AppRegistrationRecord | undefined> {
    const record = this.store.data.appRegistrations.find((r) => r.clientId === clientId);
    if (!record) return undefined;
    return (await verifySecret(clientSecret, record.secretHash)) ? record : undefined;
  }
}
