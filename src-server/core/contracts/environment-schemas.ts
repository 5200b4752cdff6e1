import * as z from 'zod';
import { DescriptionPatchSchema, DescriptionSchema, NameSchema } from './common-schemas.js';

export const EnvironmentSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    id: 'Environment',
    description: 'An environment: agent groups run in one, variables have a value per environment.',
  });
export type Environment = z.output<typeof EnvironmentSchema>;

export const CreateEnvironmentSchema = z
  .object({ name: NameSchema, description: DescriptionSchema.optional() })
  .strict()
  .meta({ id: 'CreateEnvironment' });
export type CreateEnvironmentInput = z.infer<typeof CreateEnvironmentSchema>;
export type CreateEnvironment = z.input<typeof CreateEnvironmentSchema>;

export const ModifyEnvironmentSchema = z
  .object({ name: NameSchema.optional(), description: DescriptionPatchSchema })
  .strict()
  .meta({ id: 'ModifyEnvironment' });
export type ModifyEnvironmentInput = z.infer<typeof ModifyEnvironmentSchema>;
export type ModifyEnvironment = z.input<typeof ModifyEnvironmentSchema>;
