import { $RefParser, JSONParserErrorGroup, type FileInfo } from '@apidevtools/json-schema-ref-parser';
import { decodeInput } from '../openapi/decode-input.js';
import { pointerFromSegments } from '../openapi/json-pointer.js';
import { parseText } from '../openapi/parse-text.js';
import type { DefinitionIssue } from '../openapi/index.js';

export interface BundleResult {
  /** The description with every file it names folded in (internal `$ref`s only, where all could be read). */
  document: unknown;
  /** URLs of the files read besides the root. */
  files: string[];
  /** Files that could not be read or parsed, at the `$ref` that names them. */
  warnings: DefinitionIssue[];
}

/**
 * Folds the files that a multi-file description's `$ref`s name (`./paths/pets.yaml`,
 * `../schemas/pet.yaml#/Pet`) into one document, resolved relative to the file that names them, with
 * JSON Schema $Ref Parser (the resolver swagger-parser is built on). Files are read through `load` only (the
 * import's own checks and limits) and parsed with Gatehouse's JSON/YAML reader. A file that can't be read is
 * reported and its `$ref` left as written.
 */
export async function bundleExternalRefs(
  root: object,
  rootUrl: string,
  load: (url: string) => Promise<Uint8Array>,
  maxBytes: number,
): Promise<BundleResult> {
  const files: string[] = [];
  const parser = new $RefParser();
  const options = {
    continueOnError: true,
    resolve: {
      external: true,
      file: false as const,
      http: false as const,
      gatehouse: {
        order: 1,
        canRead: true,
        read: async (file: FileInfo) => {
          const bytes = await load(file.url);
          files.push(file.url);
          return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        },
      },
    },
    parse: {
      json: false as const,
      yaml: false as const,
      text: false as const,
      binary: false as const,
      gatehouse: {
        order: 1,
        canParse: true,
        parse: (file: FileInfo) => parseFile(file, maxBytes),
      },
    },
    dereference: { circular: true as const },
  };
  try {
    const document = await parser.bundle(rootUrl, root as never, options as never);
    return { document, files, warnings: [] };
  } catch (error) {
    if (!(error instanceof JSONParserErrorGroup)) throw error;
    const warnings = error.errors.map((problem) => ({
      pointer: pointerFromSegments((problem.path ?? []).map(String)),
      message: `a referenced file could not be used: ${plainMessage(problem.message)}`,
    }));
    return { document: parser.schema, files, warnings };
  }
}

function parseFile(file: FileInfo, maxBytes: number): unknown {
  const decoded = decodeInput(file.data, maxBytes);
  if (!decoded.ok) throw new Error(decoded.error.message);
  const parsed = parseText(decoded.text);
  if (!parsed.ok) throw new Error(`${file.url}: ${parsed.error.message}`);
  return parsed.value;
}

function plainMessage(message: string): string {
  return message.replace(/^Error (?:reading|resolving) file /, 'reading ');
}
