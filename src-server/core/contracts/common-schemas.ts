import * as z from 'zod';

/** Field schemas shared by the management request bodies. */

/** Names are unique ignoring case; the comparison every service uses. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export const NameSchema = z.string().trim().min(1, 'A name is required.').max(200);
export const DescriptionSchema = z.string().max(2000);
/** In a PATCH body: a text sets the description, `null` removes it. */
export const DescriptionPatchSchema = DescriptionSchema.nullable().optional();

/** Ids of path parameters: UUIDs, or the seeded `development` and `default`. */
export const IdParams = z.object({ id: z.string().min(1).max(100) });

export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const IdentifierSchema = z
  .string()
  .max(100)
  .regex(IDENTIFIER_PATTERN, 'Use letters, digits and underscores, starting with a letter or underscore.')
  .refine((name) => name !== '__proto__', 'This name is reserved.');
