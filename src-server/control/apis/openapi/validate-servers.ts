import { normalizeBasePath } from '../../../core/paths/base-path.js';
import { appendPointer } from './json-pointer.js';
import { describeType, isJsonObject, ownValue, quoteValue } from './object-access.js';
import { basePathFromServerUrl, substituteServerVariables } from './server-url.js';
import type { JsonObject } from './object-access.js';
import type { ValidationContext } from './validation-context.js';

/** Where the API lives: OpenAPI 3 `servers`, Swagger 2.0 `host` / `basePath` / `schemes`. */

export interface ValidatedServer {
  serverUrl?: string;
  basePath: string;
}

const NO_SERVER: ValidatedServer = { basePath: '/' };

export function validateServers(document: JsonObject, context: ValidationContext): ValidatedServer {
  return context.version === '2.0'
    ? validateSwaggerLocation(document, context)
    : validateOpenApiServers(document, context);
}

function validateOpenApiServers(document: JsonObject, context: ValidationContext): ValidatedServer {
  const { issues } = context;
  for (const key of ['host', 'basePath', 'schemes']) {
    if (ownValue(document, key) !== undefined) {
      issues.warning(`/${key}`, `"${key}" is a Swagger 2.0 field, ignored in OpenAPI 3 (use servers)`);
    }
  }
  const servers = ownValue(document, 'servers');
  if (servers !== undefined && !Array.isArray(servers)) {
    issues.error('/servers', `must be an array of server objects, found ${describeType(servers)}`);
    return NO_SERVER;
  }
  if (servers === undefined || servers.length === 0) {
    issues.warning(
      '/servers',
      'no servers: the base path is "/", which overlaps the base path of every other API; add servers: [{ url: /my-api/v1 }]',
    );
    return NO_SERVER;
  }
  let first: ValidatedServer | undefined;
  servers.forEach((server, index) => {
    const pointer = appendPointer('/servers', index);
    const validated = validateServer(server, pointer, context);
    if (index === 0) first = validated;
    else if (validated && first && validated.basePath !== first.basePath) {
      issues.warning(
        pointer,
        `base path ${quoteValue(validated.basePath)} differs from the first server's ${quoteValue(first.basePath)}; the first server's is used`,
      );
    }
  });
  return first ?? NO_SERVER;
}

function validateServer(
  server: unknown,
  pointer: string,
  context: ValidationContext,
): ValidatedServer | undefined {
  const { issues } = context;
  if (!isJsonObject(server)) {
    issues.error(pointer, `a server must be an object with a url, found ${describeType(server)}`);
    return undefined;
  }
  const url = ownValue(server, 'url');
  const urlPointer = `${pointer}/url`;
  if (url === undefined) {
    issues.error(urlPointer, 'missing: a server needs a url such as https://api.example.com/v1 or /v1');
    return undefined;
  }
  if (typeof url !== 'string' || url.trim() === '') {
    issues.error(urlPointer, `must be a non-empty URL string, found ${quoteValue(url)}`);
    return undefined;
  }
  const defaults = validateVariables(ownValue(server, 'variables'), `${pointer}/variables`, context);
  const substituted = substituteServerVariables(url, defaults ?? new Map());
  let usable = defaults !== undefined;
  for (const problem of substituted.problems) {
    issues.error(urlPointer, `server URL ${quoteValue(url)}: ${problem}`);
    usable = false;
  }
  if (defaults) {
    for (const name of substituted.unknownNames) {
      issues.error(urlPointer, `server variable {${name}} is used in the URL but not defined in variables`);
      usable = false;
    }
    for (const name of defaults.keys()) {
      if (!substituted.usedNames.includes(name)) {
        issues.warning(
          appendPointer(`${pointer}/variables`, name),
          `server variable "${name}" is not used in the URL`,
        );
      }
    }
  }
  if (!usable) return undefined;
  const basePath = basePathFromServerUrl(substituted.url);
  if (!basePath.ok) {
    issues.error(urlPointer, basePath.message);
    return undefined;
  }
  for (const note of basePath.notes) issues.warning(urlPointer, note);
  return { serverUrl: substituted.url, basePath: basePath.basePath };
}

/** Variable defaults by name, or `undefined` when the variables cannot be used. */
function validateVariables(
  variables: unknown,
  pointer: string,
  context: ValidationContext,
): Map<string, string> | undefined {
  const { issues } = context;
  const defaults = new Map<string, string>();
  if (variables === undefined) return defaults;
  if (!isJsonObject(variables)) {
    issues.error(pointer, `must be an object of server variables, found ${describeType(variables)}`);
    return undefined;
  }
  let usable = true;
  for (const [name, variable] of Object.entries(variables)) {
    const value = validateVariable(variable, appendPointer(pointer, name), context);
    if (value === undefined) usable = false;
    else defaults.set(name, value);
  }
  return usable ? defaults : undefined;
}

function validateVariable(
  variable: unknown,
  pointer: string,
  context: ValidationContext,
): string | undefined {
  const { issues, version } = context;
  if (!isJsonObject(variable)) {
    issues.error(
      pointer,
      `a server variable must be an object with a default, found ${describeType(variable)}`,
    );
    return undefined;
  }
  let value: string | undefined;
  const defaultValue = ownValue(variable, 'default');
  if (defaultValue === undefined) {
    issues.error(`${pointer}/default`, 'missing: a server variable needs a default value');
  } else if (typeof defaultValue === 'string') {
    value = defaultValue;
  } else if (typeof defaultValue === 'number' || typeof defaultValue === 'boolean') {
    issues.warning(`${pointer}/default`, `should be a string; read ${defaultValue} as "${defaultValue}"`);
    value = String(defaultValue);
  } else {
    issues.error(`${pointer}/default`, `must be a string, found ${describeType(defaultValue)}`);
  }
  const allowed = ownValue(variable, 'enum');
  if (allowed === undefined) return value;
  if (!Array.isArray(allowed) || !allowed.every((item) => typeof item === 'string')) {
    issues.error(`${pointer}/enum`, 'must be an array of strings');
    return value;
  }
  if (allowed.length === 0) {
    // 3.1 says MUST NOT be empty; 3.0 only SHOULD.
    if (version === '3.1') issues.error(`${pointer}/enum`, 'must not be empty');
    else issues.warning(`${pointer}/enum`, 'should not be empty');
  } else if (value !== undefined && !allowed.includes(value)) {
    const message = `default ${quoteValue(value)} is not one of the enum values`;
    if (version === '3.1') {
      issues.error(`${pointer}/default`, message);
      return undefined;
    }
    issues.warning(`${pointer}/default`, message);
  }
  return value;
}

const SWAGGER_SCHEMES = ['http', 'https', 'ws', 'wss'];
const SWAGGER_HOST = /^(\[[0-9A-Fa-f:.]+\]|[^\s/?#@[\]{}:\\]+)(:\d{1,5})?$/;

function validateSwaggerLocation(document: JsonObject, context: ValidationContext): ValidatedServer {
  const { issues } = context;
  if (ownValue(document, 'servers') !== undefined) {
    issues.warning(
      '/servers',
      '"servers" is an OpenAPI 3 field, ignored in Swagger 2.0 (use host and basePath)',
    );
  }
  const host = ownValue(document, 'host');
  let validHost: string | undefined;
  if (host !== undefined) {
    if (typeof host !== 'string' || !SWAGGER_HOST.test(host)) {
      issues.error(
        '/host',
        `must be a host name with an optional port and no scheme or path, such as "api.example.com:8443"; found ${quoteValue(host)}`,
      );
    } else {
      validHost = host;
    }
  }
  const basePath = validateSwaggerBasePath(ownValue(document, 'basePath'), context);
  const scheme = validateSwaggerSchemes(ownValue(document, 'schemes'), context);
  if (basePath === undefined) return NO_SERVER;
  const normalized = normalizeBasePath(basePath);
  if (validHost !== undefined) {
    return {
      serverUrl: `${scheme}://${validHost}${normalized === '/' ? '' : normalized}`,
      basePath: normalized,
    };
  }
  return ownValue(document, 'basePath') === undefined
    ? NO_SERVER
    : { serverUrl: normalized, basePath: normalized };
}

/** The base path as written, `'/'` when absent, `undefined` when invalid. */
function validateSwaggerBasePath(basePath: unknown, context: ValidationContext): string | undefined {
  const { issues } = context;
  if (basePath === undefined) {
    issues.warning(
      '/basePath',
      'no basePath: the base path is "/", which overlaps the base path of every other API; add basePath: /my-api/v1',
    );
    return '/';
  }
  if (typeof basePath !== 'string' || !basePath.startsWith('/')) {
    issues.error(
      '/basePath',
      `must be a path starting with "/", such as "/billing/v1"; found ${quoteValue(basePath)}`,
    );
  } else if (/[{}]/.test(basePath)) {
    issues.error('/basePath', 'Swagger 2.0 basePath does not support templating ({...})');
  } else if (/[?#]/.test(basePath)) {
    issues.error('/basePath', 'must not contain a query string or fragment');
  } else {
    return basePath;
  }
  return undefined;
}

/** The scheme for `serverUrl`: https when allowed (or when none are listed), else the first listed. */
function validateSwaggerSchemes(schemes: unknown, context: ValidationContext): string {
  if (schemes === undefined) return 'https';
  if (!Array.isArray(schemes)) {
    context.issues.error('/schemes', `must be an array such as [https], found ${describeType(schemes)}`);
    return 'https';
  }
  const valid: string[] = [];
  schemes.forEach((scheme, index) => {
    if (typeof scheme === 'string' && SWAGGER_SCHEMES.includes(scheme)) valid.push(scheme);
    else
      context.issues.error(
        appendPointer('/schemes', index),
        `must be one of http, https, ws, wss; found ${quoteValue(scheme)}`,
      );
  });
  return valid.includes('https') ? 'https' : (valid[0] ?? 'https');
}
