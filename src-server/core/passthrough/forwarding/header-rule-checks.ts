import type { HeaderEntry } from '../../model/config-model.js';
import type { TemplateError } from '../../template/index.js';
import { HOP_BY_HOP_HEADERS } from './hop-by-hop.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Headers whose values frame the message or pick the connection: the gateway sets them itself, so a header
 * entry cannot add, overwrite or remove them (that would open request smuggling or break the framing).
 */
const GATEWAY_OWNED = new Set([...HOP_BY_HOP_HEADERS, 'host', 'content-length', 'expect']);

/** Problems of header entry names; `place` is `header:<index>` like the template errors. */
export function checkHeaderRules(rules: readonly HeaderEntry[]): TemplateError[] {
  const errors: TemplateError[] = [];
  rules.forEach((rule, index) => {
    const place = `header:${index}` as const;
    const name = rule.name;
    if (!TOKEN.test(name)) {
      errors.push({
        place,
        position: 0,
        length: name.length,
        message:
          name.trim() === ''
            ? 'the header name is required'
            : `'${name}' is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only)`,
      });
    } else if (GATEWAY_OWNED.has(name.toLowerCase())) {
      errors.push({
        place,
        position: 0,
        length: name.length,
        message: `the gateway sets ${name} itself; a header entry cannot ${rule.action.toLowerCase()} it`,
      });
    }
  });
  return errors;
}
