import * as z from 'zod';
import { DescriptionPatchSchema, DescriptionSchema, IdentifierSchema, sameName } from './common-schemas.js';

export const ENVIRONMENT_VARIABLE_TYPES = ['string', 'number', 'boolean', 'secret'] as const;
export type EnvironmentVariableType = (typeof ENVIRONMENT_VARIABLE_TYPES)[number];
export const ENVIRONMENT_VARIABLE_KINDS = ['value', 'group'] as const;
export type EnvironmentVariableKind = (typeof ENVIRONMENT_VARIABLE_KINDS)[number];

const TypeSchema = z
  .enum(ENVIRONMENT_VARIABLE_TYPES)
  .meta({ description: 'Secret values are encrypted at rest and always shown as ********.' });

const ScalarSchema = z.union([z.string(), z.number(), z.boolean()]);
export type EnvironmentVariableScalar = z.output<typeof ScalarSchema>;

const MemberSchema = z.object({ name: IdentifierSchema, type: TypeSchema }).strict();

const MembersSchema = z
  .array(MemberSchema)
  .min(1, 'A group needs at least one member.')
  .max(100)
  .superRefine((members, ctx) => {
    members.forEach((member, index) => {
      if (members.findIndex((other) => sameName(other.name, member.name)) !== index) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: `The member name '${member.name}' is used twice.`,
        });
      }
    });
  });

const VariableNameSchema = IdentifierSchema.meta({
  description: 'Referenced as #env.<name>; unique ignoring case.',
});

export const CreateEnvironmentVariableSchema = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('value'),
        name: VariableNameSchema,
        description: DescriptionSchema.optional(),
        type: TypeSchema.default('string'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('group'),
        name: VariableNameSchema,
        description: DescriptionSchema.optional(),
        members: MembersSchema,
      })
      .strict(),
  ])
  .meta({ id: 'CreateEnvironmentVariable' });
export type CreateEnvironmentVariableInput = z.infer<typeof CreateEnvironmentVariableSchema>;
export type CreateEnvironmentVariable = z.input<typeof CreateEnvironmentVariableSchema>;

export const ModifyEnvironmentVariableSchema = z
  .object({
    name: VariableNameSchema.optional(),
    description: DescriptionPatchSchema,
    type: TypeSchema.optional().meta({ description: 'For a single-value variable.' }),
    members: MembersSchema.optional().meta({
      description:
        'For a group: the new member list. Members are matched by name; a dropped member loses its values.',
    }),
  })
  .strict()
  .meta({ id: 'ModifyEnvironmentVariable' });
export type ModifyEnvironmentVariableInput = z.infer<typeof ModifyEnvironmentVariableSchema>;
export type ModifyEnvironmentVariable = z.input<typeof ModifyEnvironmentVariableSchema>;

export const SetValuesSchema = z
  .object({
    value: ScalarSchema.optional().meta({ description: 'For a single-value variable.' }),
    members: z.record(z.string().max(100), ScalarSchema).optional().meta({
      description: 'For a group: member → value. Members left out have no value in this environment.',
    }),
  })
  .strict()
  .meta({
    id: 'SetEnvironmentVariableValues',
    description: 'Sending ******** for a secret keeps its stored value.',
  });
export type SetValuesInput = z.infer<typeof SetValuesSchema>;
export type SetEnvironmentVariableValues = z.input<typeof SetValuesSchema>;

const EnvironmentVariableMemberSchema = z.object({ name: z.string(), type: TypeSchema });
export type EnvironmentVariableMember = z.output<typeof EnvironmentVariableMemberSchema>;

/** A variable's value (single value) or member values (group) in one environment; secrets as `********`. */
const EnvironmentVariableValuesSchema = z.object({
  value: ScalarSchema.optional(),
  members: z.record(z.string(), ScalarSchema).optional(),
});
export type EnvironmentVariableValues = z.output<typeof EnvironmentVariableValuesSchema>;

export const EnvironmentVariableSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    kind: z.enum(ENVIRONMENT_VARIABLE_KINDS),
    type: TypeSchema.optional().meta({ description: 'For a single-value variable.' }),
    members: z.array(EnvironmentVariableMemberSchema).optional().meta({ description: 'For a group.' }),
    values: z
      .record(z.string(), EnvironmentVariableValuesSchema)
      .meta({ description: 'environmentId → its value (or member values); secrets as ********.' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'EnvironmentVariable' });
export type EnvironmentVariable = z.output<typeof EnvironmentVariableSchema>;
