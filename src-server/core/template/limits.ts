/** Bounds on the work one template may cause, at compile and at render time. */

export { MAX_TEMPLATE_LENGTH, SECRET_MASK } from '../contracts/constants.js';
/** Nesting of an expression: parentheses, operators, calls and member chains. */
export const MAX_EXPRESSION_DEPTH = 48;
/** Length of any intermediate or final value inside an expression (UTF-16 code units). */
export const MAX_VALUE_LENGTH = 65_536;
export const MAX_URL_LENGTH = 8192;
export const MAX_HEADER_VALUE_LENGTH = 8192;
