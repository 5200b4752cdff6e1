export { openAuditStore, type OpenAuditStoreOptions } from './open-audit-store.js';
export { AuditStoreClosedError } from './file-audit-store.js';
export { InvalidAuditEntryError } from './normalize-entry.js';
