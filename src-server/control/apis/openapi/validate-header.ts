import { isJsonObject, ownValue, quoteValue } from './object-access.js';
import type { IssueCollector } from './issues.js';
import type { JsonObject } from './object-access.js';
import type { SpecVersion } from './types.js';

/** The version field (`openapi` / `swagger`) and the `info` object. */

export interface VersionCheck {
  /** The declared version when it is valid and supported. */
  specVersion?: SpecVersion;
  /** The rules to validate the rest with (a best guess when the version is wrong); none when not an API document. */
  rules?: SpecVersion;
}

const OPENAPI_VERSION = /^3\.(0|1)(\.\d+)?(-[0-9A-Za-z.-]+)?$/;

export function checkSpecVersion(document: JsonObject, issues: IssueCollector): VersionCheck {
  const openapi = ownValue(document, 'openapi');
  const swagger = ownValue(document, 'swagger');
  if (openapi !== undefined && swagger !== undefined) {
    issues.error(
      '/swagger',
      'a document cannot declare both "openapi" and "swagger"; keep the one it follows',
    );
    return { rules: '3.0' };
  }
  if (openapi !== undefined) return checkOpenApiVersion(openapi, issues);
  if (swagger !== undefined) return checkSwaggerVersion(swagger, issues);
  issues.error(
    '/openapi',
    'missing: not an OpenAPI or Swagger document (expected a field such as openapi: 3.1.0, openapi: 3.0.3 or swagger: "2.0")',
  );
  return {};
}

function checkOpenApiVersion(value: unknown, issues: IssueCollector): VersionCheck {
  if (typeof value !== 'string') {
    const hint = typeof value === 'number' ? ' (in YAML, quote it: openapi: "3.0.3")' : '';
    issues.error(
      '/openapi',
      `must be a version string such as "3.1.0" or "3.0.3", found ${quoteValue(value)}${hint}`,
    );
    return { rules: typeof value === 'number' && value >= 3.05 ? '3.1' : '3.0' };
  }
  const match = OPENAPI_VERSION.exec(value);
  if (!match) {
    const supported = 'supported versions are 3.1.x, 3.0.x and Swagger 2.0';
    issues.error(
      '/openapi',
      /^\d+\.\d+/.test(value)
        ? `OpenAPI ${quoteValue(value)} is not supported; ${supported}`
        : `${quoteValue(value)} is not an OpenAPI version; ${supported}`,
    );
    return { rules: value.startsWith('3.') ? '3.1' : '3.0' };
  }
  if (match[2] === undefined) {
    issues.warning('/openapi', `${quoteValue(value)} has no patch number; read as ${value}.0`);
  }
  return match[1] === '1' ? { specVersion: '3.1', rules: '3.1' } : { specVersion: '3.0', rules: '3.0' };
}

function checkSwaggerVersion(value: unknown, issues: IssueCollector): VersionCheck {
  if (value === '2.0') return { specVersion: '2.0', rules: '2.0' };
  if (value === 2) {
    // `swagger: 2.0` unquoted is a YAML number; very common in hand-written files and unambiguous.
    issues.warning('/swagger', 'must be the string "2.0"; read the number 2.0 as "2.0" (in YAML, quote it)');
    return { specVersion: '2.0', rules: '2.0' };
  }
  issues.error('/swagger', `must be "2.0", found ${quoteValue(value)}`);
  return { rules: '2.0' };
}

export interface ValidatedInfo {
  title: string;
  version: string;
  description?: string;
}

export function validateInfo(document: JsonObject, issues: IssueCollector): ValidatedInfo | undefined {
  const info = ownValue(document, 'info');
  if (info === undefined) {
    issues.error('/info', 'missing: the document needs an info object with title and version');
    return undefined;
  }
  if (!isJsonObject(info)) {
    issues.error('/info', `must be an object with title and version, found ${quoteValue(info)}`);
    return undefined;
  }
  const title = requiredText(info, 'title', issues);
  const version = infoVersion(info, issues);
  const description = ownValue(info, 'description');
  if (description !== undefined && typeof description !== 'string') {
    issues.warning('/info/description', `should be a string, found ${quoteValue(description)}; ignored`);
  }
  if (title === undefined || version === undefined) return undefined;
  return typeof description === 'string' ? { title, version, description } : { title, version };
}

function requiredText(
  info: JsonObject,
  key: 'title' | 'version',
  issues: IssueCollector,
): string | undefined {
  const value = ownValue(info, key);
  const pointer = `/info/${key}`;
  if (value === undefined) issues.error(pointer, `missing: info.${key} is required`);
  else if (typeof value !== 'string') issues.error(pointer, `must be a string, found ${quoteValue(value)}`);
  else if (value.trim() === '') issues.error(pointer, 'must not be empty');
  else return value;
  return undefined;
}

function infoVersion(info: JsonObject, issues: IssueCollector): string | undefined {
  const value = ownValue(info, 'version');
  if (typeof value === 'number' && Number.isFinite(value)) {
    // `version: 1.0` unquoted in YAML is a number; the text as written ("1.0") is already lost.
    issues.warning(
      '/info/version',
      `should be a string; read the number ${value} as "${value}" (in YAML, quote it)`,
    );
    return String(value);
  }
  return requiredText(info, 'version', issues);
}
