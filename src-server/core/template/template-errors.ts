import type { TemplateError, TemplatePlace } from './index.js';

/** `section3` → `section 3`, `header:2` → `header 2 value`: how messages name the place of an error. */
export function describePlace(place: TemplatePlace): string {
  if (place.startsWith('header:')) return `the value of header entry ${place.slice('header:'.length)}`;
  return `section ${place.slice('section'.length)}`;
}

/** The field of an editor entry a template error belongs to, relative to the entry. */
export function fieldOfPlace(place: TemplatePlace): (string | number)[] {
  if (place.startsWith('header:')) return ['headers', Number(place.slice('header:'.length)), 'value'];
  return ['target', place];
}

/** `section 3, position 28: the expression ends too early; expected a value` (positions are 0-based). */
export function describeTemplateError(error: TemplateError): string {
  return `${describePlace(error.place)}, position ${error.position}: ${error.message}`;
}
