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
    issues.warning(
      '/servers',
      `should be an array of server objects, found ${describeType(servers)}; ignored`,
    );
  }
  if (!Array.isArray(servers) || servers.length === 0) return noServer(context);
  let first: ValidatedServer | undefined;
  servers.forEach((server, index) => {
    const pointer = appendPointer('/servers', index);
    const validated = validateServer(server, pointer, context);
    if (!validated) return;
    if (first === undefined) {
      first = validated;
      if (index > 0)
        issues.warning(
          pointer,
          `the first usable server is this one; its base path ${quoteValue(validated.basePath)} is used`,
        );
    } else if (validated.basePath !== first.basePath) {
      issues.warning(
        pointer,
        `base path ${quoteValue(validated.basePath)} differs from the first server's ${quoteValue(first.basePath)}; the first server's is used`,
      );
    }
  });
  return first ?? noServer(context);
}

/** No usable server: OpenAPI's default server is `/`, on the host the document came from. */
function noServer(context: ValidationContext): ValidatedServer {
  const origin = originOf(context.documentUrl);
  context.issues.warning(
    '/servers',
    'no usable server: the base path is "/", which overlaps the base path of every other API; add servers: [{ url: /my-api/v1 }]',
  );
  return origin ? { serverUrl: `${origin}/`, basePath: '/' } : NO_SERVER;
}

function originOf(documentUrl: string | undefined): string | undefined {
  if (documentUrl === undefined || !/^https?:/i.test(documentUrl)) return undefined;
  return new URL(documentUrl).origin;
}

function validateServer(
  server: unknown,
  pointer: string,
  context: ValidationContext,
): ValidatedServer | undefined {
  const { issues } = context;
  if (!isJsonObject(server)) {
    issues.warning(
      pointer,
      `a server should be an object with a url, found ${describeType(server)}; ignored`,
    );
    return undefined;
  }
  const url = ownValue(server, 'url');
  const urlPointer = `${pointer}/url`;
  if (typeof url !== 'string') {
    issues.warning(
      urlPointer,
      url === undefined
        ? 'missing: a server needs a url such as https://api.example.com/v1 or /v1; this server is ignored'
        : `should be a URL string, found ${quoteValue(url)}; this server is ignored`,
    );
    return undefined;
  }
  const defaults = validateVariables(ownValue(server, 'variables'), `${pointer}/variables`, context);
  const substituted = substituteServerVariables(url.trim(), defaults);
  for (const problem of substituted.problems) {
    issues.warning(urlPointer, `server URL ${quoteValue(url)}: ${problem}; this server is ignored`);
  }
  for (const name of substituted.unknownNames) {
    issues.warning(
      urlPointer,
      `server variable {${name}} is used in the URL but has no default; this server is ignored`,
    );
  }
  for (const name of defaults.keys()) {
    if (!substituted.usedNames.includes(name)) {
      issues.warning(
        appendPointer(`${pointer}/variables`, name),
        `server variable "${name}" is not used in the URL`,
      );
    }
  }
  if (substituted.problems.length > 0 || substituted.unknownNames.length > 0) return undefined;
  const basePath = basePathFromServerUrl(substituted.url, context.documentUrl);
  if (!basePath.ok) {
    issues.warning(urlPointer, `${basePath.message}; this server is ignored`);
    return undefined;
  }
  for (const note of basePath.notes) issues.warning(urlPointer, note);
  return { serverUrl: basePath.serverUrl, basePath: basePath.basePath };
}

/** Variable values by name: each default, else its first enum value; a variable with neither is left out. */
function validateVariables(
  variables: unknown,
  pointer: string,
  context: ValidationContext,
): Map<string, string> {
  const { issues } = context;
  const defaults = new Map<string, string>();
  if (variables === undefined) return defaults;
  if (!isJsonObject(variables)) {
    issues.warning(
      pointer,
      `should be an object of server variables, found ${describeType(variables)}; ignored`,
    );
    return defaults;
  }
  for (const [name, variable] of Object.entries(variables)) {
    const value = validateVariable(variable, appendPointer(pointer, name), context);
    if (value !== undefined) defaults.set(name, value);
  }
  return defaults;
}

function validateVariable(
  variable: unknown,
  pointer: string,
  context: ValidationContext,
): string | undefined {
  const { issues } = context;
  if (!isJsonObject(variable)) {
    issues.warning(
      pointer,
      `a server variable should be an object with a default, found ${describeType(variable)}`,
    );
    return undefined;
  }
  const allowed = ownValue(variable, 'enum');
  const choices =
    Array.isArray(allowed) && allowed.every((item) => typeof item === 'string') ? allowed : undefined;
  if (allowed !== undefined && choices === undefined) {
    issues.warning(`${pointer}/enum`, 'should be an array of strings; ignored');
  } else if (choices?.length === 0) {
    issues.warning(`${pointer}/enum`, 'should not be empty');
  }
  const defaultValue = ownValue(variable, 'default');
  let value: string | undefined;
  if (typeof defaultValue === 'string') value = defaultValue;
  else if (typeof defaultValue === 'number' || typeof defaultValue === 'boolean') {
    issues.warning(`${pointer}/default`, `should be a string; read ${defaultValue} as "${defaultValue}"`);
    value = String(defaultValue);
  } else if (choices?.[0] !== undefined) {
    issues.warning(
      `${pointer}/default`,
      `missing: a server variable needs a default; its first enum value ${quoteValue(choices[0])} is used`,
    );
    return choices[0];
  } else {
    issues.warning(
      `${pointer}/default`,
      defaultValue === undefined
        ? 'missing: a server variable needs a default value'
        : `should be a string, found ${describeType(defaultValue)}`,
    );
    return undefined;
  }
  if (choices && choices.length > 0 && !choices.includes(value)) {
    issues.warning(
      `${pointer}/default`,
      `default ${quoteValue(value)} is not one of the enum values; used anyway`,
    );
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
      issues.warning(
        '/host',
        `should be a host name with an optional port and no scheme or path, such as "api.example.com:8443"; found ${quoteValue(host)}, ignored`,
      );
    } else {
      validHost = host;
    }
  }
  const normalized = normalizeBasePath(validateSwaggerBasePath(ownValue(document, 'basePath'), context));
  const scheme = validateSwaggerSchemes(ownValue(document, 'schemes'), context);
  const path = normalized === '/' ? '' : normalized;
  if (validHost !== undefined) return { serverUrl: `${scheme}://${validHost}${path}`, basePath: normalized };
  // Without host, Swagger 2.0 means the host that serves the document.
  const origin = originOf(context.documentUrl);
  if (origin !== undefined) return { serverUrl: `${origin}${path || '/'}`, basePath: normalized };
  return ownValue(document, 'basePath') === undefined
    ? NO_SERVER
    : { serverUrl: normalized, basePath: normalized };
}

/** The base path as written; `'/'` when absent or unusable. */
function validateSwaggerBasePath(basePath: unknown, context: ValidationContext): string {
  const { issues } = context;
  if (basePath === undefined) {
    issues.warning(
      '/basePath',
      'no basePath: the base path is "/", which overlaps the base path of every other API; add basePath: /my-api/v1',
    );
    return '/';
  }
  if (typeof basePath !== 'string') {
    issues.warning(
      '/basePath',
      `should be a path such as "/billing/v1", found ${quoteValue(basePath)}; "/" is used`,
    );
    return '/';
  }
  if (/[{}]/.test(basePath)) {
    issues.warning('/basePath', 'Swagger 2.0 basePath does not support templating ({...}); "/" is used');
    return '/';
  }
  if (!basePath.startsWith('/')) issues.warning('/basePath', `should start with "/"; read as "/${basePath}"`);
  if (/[?#]/.test(basePath))
    issues.warning('/basePath', 'should not contain a query string or fragment; they are ignored');
  return basePath;
}

/** The scheme for `serverUrl`: https when allowed (or when none are listed), else the first listed. */
function validateSwaggerSchemes(schemes: unknown, context: ValidationContext): string {
  if (schemes === undefined) return 'https';
  if (!Array.isArray(schemes)) {
    context.issues.warning('/schemes', `should be an array such as [https], found ${describeType(schemes)}`);
    return 'https';
  }
  const valid: string[] = [];
  schemes.forEach((scheme, index) => {
    if (typeof scheme === 'string' && SWAGGER_SCHEMES.includes(scheme)) valid.push(scheme);
    else
      context.issues.warning(
        appendPointer('/schemes', index),
        `should be one of http, https, ws, wss; found ${quoteValue(scheme)}`,
      );
  });
  return valid.includes('https') ? 'https' : (valid[0] ?? 'https');
}
