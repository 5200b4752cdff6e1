import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type JsonObject = Record<string, unknown>;
interface Operation {
  responses: Record<string, JsonObject>;
}
interface PathEntry {
  template: string;
  pattern: RegExp;
  literalSegments: number;
  operations: Record<string, Operation>;
}

const DOCUMENT_ID = 'https://gatehouse.invalid/swagger/v1/swagger.json';
const pointer = (...parts: string[]) =>
  parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * Checks answers of the management API against its OpenAPI document: the status is documented for the
 * operation, the media type for that status, the required headers are sent, and a JSON body matches the schema.
 * A method the path lacks must be answered 405 with the documented methods in `Allow`.
 */
export class OpenApiResponseCheck {
  readonly #ajv: Ajv2020;
  readonly #document: JsonObject;
  readonly #paths: PathEntry[];
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(document: JsonObject) {
    this.#document = document;
    // strictSchema off: the document's own members (openapi, paths, responses…) are not JSON Schema keywords.
    this.#ajv = new Ajv2020({ strictSchema: false, allowUnionTypes: true, allErrors: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema(closedObjects(document), DOCUMENT_ID);
    this.#paths = Object.entries(document.paths as Record<string, Record<string, Operation>>).map(
      ([template, operations]) => {
        const segments = template.split('/');
        const source = segments.map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : escape(segment)));
        return {
          template,
          pattern: new RegExp(`^${source.join('/')}$`),
          literalSegments: segments.filter((segment) => !segment.startsWith('{')).length,
          operations,
        };
      },
    );
  }

  /** Whether the document has the path (a Control Panel restarted with the audit log route may have more). */
  documents(url: string): boolean {
    return this.#entryOf(new URL(url).pathname) !== undefined;
  }

  /** What is wrong with the answer, or undefined when it matches the document (or the path is not in it). */
  async problemsOf(method: string, url: string, response: Response): Promise<string | undefined> {
    const path = new URL(url).pathname;
    const entry = this.#entryOf(path);
    if (!entry) return undefined;
    const where = `${method} ${path} → ${response.status}`;
    const operation = entry.operations[method.toLowerCase()];
    if (!operation) return this.#methodNotAllowed(entry, where, response);

    const status = String(response.status);
    let documented = operation.responses[status];
    if (!documented) return `${where}: status not documented for ${method} ${entry.template}.`;
    if (typeof documented.$ref === 'string') documented = this.#at(documented.$ref);
    for (const [name, header] of Object.entries((documented.headers ?? {}) as Record<string, JsonObject>)) {
      if (header.required && !response.headers.has(name)) return `${where}: the ${name} header is missing.`;
    }
    if (method === 'HEAD' || response.status === 204) return undefined;

    const content = (documented.content ?? {}) as Record<string, JsonObject>;
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (Object.keys(content).length === 0) {
      const text = await response.clone().text();
      return text === '' ? undefined : `${where}: a body was sent, none is documented.`;
    }
    if (!content[mediaType]) {
      return `${where}: media type ${mediaType || '(none)'} not documented (${Object.keys(content).join(', ')}).`;
    }
    const isJson = mediaType === 'application/json' || mediaType.endsWith('+json');
    if (!isJson || !content[mediaType].schema) return undefined;
    const validate = this.#validator(entry.template, method, status, mediaType);
    const body: unknown = await response.clone().json();
    if (validate(body)) return undefined;
    return `${where}: the body does not match the document:\n${describe(validate.errors ?? [])}\n${JSON.stringify(body).slice(0, 2000)}`;
  }

  #entryOf(path: string): PathEntry | undefined {
    return this.#paths
      .filter((candidate) => candidate.pattern.test(path))
      .sort((a, b) => b.literalSegments - a.literalSegments)[0];
  }

  #methodNotAllowed(entry: PathEntry, where: string, response: Response): string | undefined {
    const documented = Object.keys(entry.operations)
      .map((method) => method.toUpperCase())
      .sort();
    const allowed = (response.headers.get('allow') ?? '')
      .split(',')
      .map((method) => method.trim())
      .filter(Boolean)
      .sort();
    if (response.status !== 405) return `${where}: the path documents only ${documented.join(', ')}.`;
    if (allowed.join() !== documented.join()) {
      return `${where}: Allow is ${allowed.join(', ')}, the document lists ${documented.join(', ')}.`;
    }
    return undefined;
  }

  /** The member a local reference (`#/components/responses/NotFound`) points at. */
  #at(ref: string): JsonObject {
    let found: unknown = this.#document;
    for (const part of ref.replace(/^#\//, '').split('/')) {
      found = (found as JsonObject)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    if (!found || typeof found !== 'object') throw new Error(`The document does not resolve ${ref}.`);
    return found as JsonObject;
  }

  #validator(template: string, method: string, status: string, mediaType: string): ValidateFunction {
    const own = `#/${pointer('paths', template, method.toLowerCase(), 'responses', status)}`;
    const response = this.#at(own);
    const ref = `${typeof response.$ref === 'string' ? response.$ref : own}/${pointer('content', mediaType, 'schema')}`;
    let validate = this.#validators.get(ref);
    if (!validate) {
      validate = this.#ajv.getSchema(`${DOCUMENT_ID}${ref}`);
      if (!validate) throw new Error(`The document has no schema at ${ref}.`);
      this.#validators.set(ref, validate);
    }
    return validate;
  }
}

/**
 * The document with every object schema closed to members it does not name (unless it says otherwise, as
 * problem details and maps do): an answer must not carry a member the document does not describe. Generated
 * clients may keep accepting new members; the tests hold the server to the document.
 */
function closedObjects<T>(value: T): T {
  if (Array.isArray(value)) return value.map(closedObjects) as T;
  if (!value || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value as JsonObject)) {
    // Member names under properties, paths and the like are names, not schemas: copy them, close their values.
    out[key] = closedObjects(child);
  }
  const isObjectSchema = out.type === 'object' && typeof out.properties === 'object';
  if (isObjectSchema && !('additionalProperties' in out) && !('unevaluatedProperties' in out)) {
    out.unevaluatedProperties = false;
  }
  return out as T;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function describe(errors: readonly ErrorObject[]): string {
  return errors
    .slice(0, 10)
    .map(
      (error) => `  ${error.instancePath || '(body)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    )
    .join('\n');
}

const checks = new Map<string, OpenApiResponseCheck>();

/** The check for the document a Control Panel serves now; compiled once per distinct document. */
export async function openApiResponseCheck(controlPanelUrl: string): Promise<OpenApiResponseCheck> {
  const response = await fetch(`${controlPanelUrl}/swagger/v1/swagger.json`);
  if (response.status !== 200) throw new Error(`The OpenAPI document answered ${response.status}.`);
  const { servers: _servers, ...document } = (await response.json()) as JsonObject;
  const key = JSON.stringify(document);
  let check = checks.get(key);
  if (!check) {
    check = new OpenApiResponseCheck(document);
    checks.set(key, check);
  }
  return check;
}
