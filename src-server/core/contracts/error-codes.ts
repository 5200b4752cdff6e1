/** The error codes of problem answers, for the console (type-only: it compares the `code` member with them). */
export type { ErrorCode } from '../errors/error-codes.js';
