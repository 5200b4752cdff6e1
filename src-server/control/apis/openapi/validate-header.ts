import { isJsonObject, ownValue, quoteValue } from './object-access.js';
import type { IssueCollector } from './issues.js';
import type { JsonObject } from './object-access.js';
import type { SpecVersion } from './types.js';

/** The version field (`openapi` / `swagger`) and the `info` object. */

const OPENAPI_VERSION = /^3\.(\d+)(\.\d+)?(-[0-9A-Za-z.-]+)?$/;
const SUPPORTED = 'Gatehouse reads OpenAPI 3.2, 3.1, 3.0 and Swagger 2.0';

/** The version the document follows, or `undefined` (refused) when it is no OpenAPI or Swagger 2.0 document. */
export function checkSpecVersion(document: JsonObject, issues: IssueCollector): SpecVersion | undefined {
  const openapi = ownValue(document, 'openapi');
  const swagger = ownValue(document, 'swagger');
  if (openapi !== undefined && swagger !== undefined) {
    const version = readOpenApiVersion(openapi, issues);
    if (version !== undefined) {
      issues.warning('/swagger', 'the document declares both "openapi" and "swagger"; read as OpenAPI');
      return version;
    }
    return readSwaggerVersion(swagger, issues);
  }
  if (openapi !== undefined) return readOpenApiVersion(openapi, issues);
  if (swagger !== undefined) return readSwaggerVersion(swagger, issues);
  issues.refuse(
    '/openapi',
    'not an OpenAPI or Swagger document: it has no "openapi" field (such as openapi: 3.1.0) and no "swagger" field (swagger: "2.0")',
  );
  return undefined;
}

function readOpenApiVersion(value: unknown, issues: IssueCollector): SpecVersion | undefined {
  let text: string;
  if (typeof value === 'number' && Number.isFinite(value)) {
    text = String(value);
    issues.warning(
      '/openapi',
      `should be a string such as "3.1.0"; read the number ${text} (in YAML, quote it)`,
    );
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    issues.refuse('/openapi', `must be a version such as "3.1.0", found ${quoteValue(value)}`);
    return undefined;
  }
  const match = OPENAPI_VERSION.exec(text) ?? /^(3)$/.exec(text);
  if (!match) {
    issues.refuse(
      '/openapi',
      /^\d+(\.\d+)*$/.test(text)
        ? `OpenAPI ${quoteValue(text)} is not supported; ${SUPPORTED}`
        : `${quoteValue(text)} is not an OpenAPI version; ${SUPPORTED}`,
    );
    return undefined;
  }
  if (text === '3') {
    issues.warning('/openapi', '"3" names no minor version; read as OpenAPI 3.0');
    return '3.0';
  }
  const minor = Number(match[1]);
  if (match[2] === undefined)
    issues.warning('/openapi', `${quoteValue(text)} has no patch number; read as ${text}.0`);
  if (minor === 0) return '3.0';
  if (minor === 1) return '3.1';
  if (minor === 2) return '3.2';
  issues.warning(
    '/openapi',
    `OpenAPI ${quoteValue(text)} is newer than Gatehouse knows; read with the rules of 3.2`,
  );
  return '3.2';
}

function readSwaggerVersion(value: unknown, issues: IssueCollector): SpecVersion | undefined {
  if (value === '2.0') return '2.0';
  if (value === 2) {
    // `swagger: 2.0` unquoted is a YAML number; very common in hand-written files and unambiguous.
    issues.warning('/swagger', 'must be the string "2.0"; read the number 2.0 as "2.0" (in YAML, quote it)');
    return '2.0';
  }
  issues.refuse('/swagger', `Swagger ${quoteValue(value)} is not supported; ${SUPPORTED}`);
  return undefined;
}

export interface ValidatedInfo {
  /** `''` when the document has none (the import names the API after its source then). */
  title: string;
  /** `''` when the document has none. */
  version: string;
  description?: string;
}

export function validateInfo(document: JsonObject, issues: IssueCollector): ValidatedInfo {
  const info = ownValue(document, 'info');
  if (!isJsonObject(info)) {
    issues.warning(
      '/info',
      info === undefined
        ? 'missing: the document has no info object, so no title and no version'
        : `should be an object with title and version, found ${quoteValue(info)}; ignored`,
    );
    return { title: '', version: '' };
  }
  const title = infoText(info, 'title', issues);
  const version = infoText(info, 'version', issues);
  const description = ownValue(info, 'description');
  if (description !== undefined && typeof description !== 'string') {
    issues.warning('/info/description', `should be a string, found ${quoteValue(description)}; ignored`);
  }
  return typeof description === 'string' ? { title, version, description } : { title, version };
}

function infoText(info: JsonObject, key: 'title' | 'version', issues: IssueCollector): string {
  const value = ownValue(info, key);
  const pointer = `/info/${key}`;
  const consequence =
    key === 'title' ? 'the API is named after where it came from' : 'the version is left empty';
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) {
    // `version: 1.0` unquoted in YAML is a number; the text as written ("1.0") is already lost.
    issues.warning(pointer, `should be a string; read the number ${value} as "${value}" (in YAML, quote it)`);
    return String(value);
  }
  if (value === undefined) issues.warning(pointer, `missing: ${consequence}`);
  else if (typeof value === 'string') issues.warning(pointer, `empty: ${consequence}`);
  else issues.warning(pointer, `should be a string, found ${quoteValue(value)}: ${consequence}`);
  return '';
}
