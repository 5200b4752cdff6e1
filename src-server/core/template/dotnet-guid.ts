/** `Guid.ToString(format)`: "D" (default, 8-4-4-4-12), "N" (32 digits), "B" ({…}), "P" ((…)); lower case like .NET. */

export type GuidFormatResult = { ok: true; text: string } | { ok: false; message: string };

export const GUID_FORMAT_MESSAGE = 'a Guid format is "D" (default), "N", "B" or "P"';

/** Accepts the usual 8-4-4-4-12 text (any case, with or without dashes) and returns 32 lower-case hex digits. */
export function normalizeGuid(text: string): string | undefined {
  const hex = text.replaceAll('-', '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) ? hex : undefined;
}

export function formatGuid(hex: string, format: string): GuidFormatResult {
  const dashed = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  switch (format) {
    case '':
    case 'D':
    case 'd':
      return { ok: true, text: dashed };
    case 'N':
    case 'n':
      return { ok: true, text: hex };
    case 'B':
    case 'b':
      return { ok: true, text: `{${dashed}}` };
    case 'P':
    case 'p':
      return { ok: true, text: `(${dashed})` };
    default:
      return { ok: false, message: GUID_FORMAT_MESSAGE };
  }
}
