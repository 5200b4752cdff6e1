/** Header names offered for header entries; any other valid name can be typed. */
export const COMMON_HEADERS: readonly string[] = [
  'Accept',
  'Accept-Encoding',
  'Accept-Language',
  'Authorization',
  'Cache-Control',
  'Content-Type',
  'Cookie',
  'Forwarded',
  'If-Match',
  'If-None-Match',
  'Origin',
  'Referer',
  'traceparent',
  'User-Agent',
  'X-API-Key',
  'X-Correlation-ID',
  'X-Forwarded-For',
  'X-Forwarded-Host',
  'X-Forwarded-Proto',
  'X-Request-ID',
];

export const ACTION_HINTS = {
  Add: 'Appends the header and keeps any header of that name from the original request.',
  Overwrite: 'Sets the header, replacing any header of that name from the original request.',
  Remove: 'Removes the header from the forwarded request.',
} as const;
