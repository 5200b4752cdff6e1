import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured logs. Redaction is a second line of defence: code never logs tokens, secrets or audit parameters
 * in the first place.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { app: 'gatehouse' },
      redact: {
        paths: [
          'authorization',
          'headers.authorization',
          'token',
          'secret',
          'clientSecret',
          'password',
          'parameters',
          '*.parameters',
        ],
        censor: '********',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination as pino.DestinationStream | undefined,
  );
}
