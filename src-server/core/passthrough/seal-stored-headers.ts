import type { Logger } from '../logging/logger.js';
import { entriesOf } from './passthrough-references.js';
import type { PassthroughRecord, StoredHeaderEntry, StoredPassthroughEntry } from '../model/config-model.js';
import type { ConfigStore } from '../config-store/config-store.js';
import { isSealed, revealsLiteralSecret, sealHeader, type HeaderSealer } from './sealed-headers.js';

/**
 * Stores written before header values were sealed (schema version 2 and older), or edited by hand, hold literal
 * credential header values in clear. Run when the data dir is opened: seals them, durably, and says how many.
 */
export async function sealStoredHeaderValues(
  store: ConfigStore,
  box: HeaderSealer,
  logger: Logger,
): Promise<number> {
  if (!store.data.passthroughs.some((passthrough) => clearValuesOf(passthrough) > 0)) return 0;
  const sealed = await store.update((data) => {
    let count = 0;
    for (const passthrough of data.passthroughs) {
      count += clearValuesOf(passthrough);
      if (passthrough.allOperations) {
        passthrough.allOperations = sealStored(passthrough.allOperations, box);
      }
      for (const [key, entry] of Object.entries(passthrough.operations)) {
        passthrough.operations[key] = sealStored(entry, box);
      }
    }
    return count;
  });
  logger.info(
    { sealed },
    'sealed literal credential header values of passthroughs in the configuration store',
  );
  return sealed;
}

function clearValuesOf(passthrough: PassthroughRecord): number {
  return entriesOf(passthrough).reduce(
    (count, [, entry]) => count + entry.headers.filter(isClearSecret).length,
    0,
  );
}

function isClearSecret(header: StoredHeaderEntry): boolean {
  return !isSealed(header) && revealsLiteralSecret(header.name, header.value);
}

function sealStored(entry: StoredPassthroughEntry, box: HeaderSealer): StoredPassthroughEntry {
  if (!entry.headers.some(isClearSecret)) return entry;
  return {
    ...entry,
    headers: entry.headers.map((header) => (isSealed(header) ? header : sealHeader(header, box))),
  };
}
