import type { ZodType } from 'zod';
import { operationKey } from '../apis/openapi/diff-operations.js';
import { sealEntry } from '../../core/passthrough/sealed-headers.js';
import type { EnvVariableShape } from '../../core/template/index.js';
import type { ApiRecord, PassthroughRecord, StoredPassthroughEntry } from '../../core/model/config-model.js';
import type { SecretBox } from '../../core/config-store/secret-box.js';
import { ALL_OPERATIONS_KEY, type EnvReference } from '../../core/passthrough/passthrough-references.js';
import { FieldErrors } from '../common/editor-paths.js';
import { restoreMaskedValues } from './credential-headers.js';
import { checkEntryRules } from './entry-rules.js';
import { compileEntryTemplates } from './entry-templates.js';
import type { PassthroughEntry } from '../../core/contracts/passthrough-schemas.js';

/**
 * A checked configuration, ready to store: entries under the API's own operation keys, templates compiled,
 * literal credential header values sealed.
 */
export interface CheckedPassthrough {
  allOperations?: StoredPassthroughEntry;
  operations: Record<string, StoredPassthroughEntry>;
  /** Every `#env` reference of the configuration, for the deploy checks. */
  references: EnvReference[];
}

/** Validates a body against its schema, errors keyed in the editor's notation; defaults filled in. */
export function parseEditorBody<T>(schema: ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors = new FieldErrors();
  errors.addZodError(parsed.error);
  throw errors.toProblem();
}

/**
 * Checks the entries of a configuration against its API: operation keys, header and CORS rules, the CA
 * certificate and the templates. Every error of the body is reported at once (400).
 */
export function checkPassthroughEntries(
  body: { allOperations?: PassthroughEntry; operations: Record<string, PassthroughEntry> },
  context: {
    api: ApiRecord;
    shapes: Record<string, EnvVariableShape>;
    stored?: PassthroughRecord;
    secretBox: Pick<SecretBox, 'seal' | 'unseal'>;
  },
): CheckedPassthrough {
  const { api, shapes, stored, secretBox } = context;
  const errors = new FieldErrors();
  const references = new Map<string, EnvReference>();
  const check = (input: PassthroughEntry, key: string | undefined, at: (string | number)[]) => {
    const storedEntry = key === undefined ? stored?.allOperations : stored?.operations[key];
    const restored = restoreMaskedValues(input, storedEntry, at, errors, secretBox);
    const { entry, badHeaders } = checkEntryRules(restored, at, errors);
    const used = compileEntryTemplates(
      entry,
      { api, operationKey: key, shapes, at, skipHeaders: badHeaders },
      errors,
    );
    for (const reference of used) references.set(reference.text, reference);
    return sealEntry(entry, secretBox);
  };

  const allOperations = body.allOperations
    ? check(body.allOperations, undefined, [ALL_OPERATIONS_KEY])
    : undefined;
  const operations: Record<string, StoredPassthroughEntry> = {};
  const byShape = operationsByShape(api);
  for (const [given, input] of Object.entries(body.operations)) {
    const at = ['operations', given];
    const operation =
      api.operations.find((candidate) => candidate.key === given) ?? byShape.get(shapeOfKey(given));
    if (!operation) {
      errors.add(
        at,
        `The API has no operation ${given.slice(0, 200)}. Use "METHOD /path" as listed in the API's operations.`,
      );
      continue;
    }
    if (Object.hasOwn(operations, operation.key)) {
      errors.add(at, `${operation.key} is configured twice.`);
      continue;
    }
    operations[operation.key] = check(input, operation.key, at);
  }
  if (!allOperations && Object.keys(body.operations).length === 0) {
    errors.add('operations', 'Configure All operations (allOperations) or at least one operation.');
  }
  errors.throwIfAny('The Passthrough configuration is not valid.');
  return { ...(allOperations ? { allOperations } : {}), operations, references: [...references.values()] };
}

function operationsByShape(api: ApiRecord): Map<string, ApiRecord['operations'][number]> {
  const byShape = new Map<string, ApiRecord['operations'][number]>();
  for (const operation of api.operations) {
    const shape = operationKey(operation);
    if (!byShape.has(shape)) byShape.set(shape, operation);
  }
  return byShape;
}

/** `get  /orders/{orderId}` → `GET /orders/{}`: a key in any method case and parameter naming. */
function shapeOfKey(key: string): string {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(key);
  return match ? operationKey({ method: match[1]!, path: match[2]! }) : '';
}
