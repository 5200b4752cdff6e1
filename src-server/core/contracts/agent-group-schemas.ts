import * as z from 'zod';
import { NameSchema } from './common-schemas.js';

// Node's isIP accepts an IPv6 zone (`fe80::1%eth0`); zod's ipv6 check does not, so the zone is set aside first.
const IPV6_ZONE = /%[0-9a-zA-Z.:-]+$/;
const Ipv4Schema = z.ipv4();
const Ipv6Schema = z.ipv6();

/**
 * A listener address of an agent group: `localhost` or an IP address (IPv6 with or without brackets), never a
 * host name that DNS could point anywhere. Lower-cased, brackets removed; undefined when it is neither.
 */
export function normalizeListenerHost(host: string): string | undefined {
  const trimmed = host.trim().toLowerCase();
  if (trimmed === 'localhost') return trimmed;
  const unbracketed = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  const isIp =
    Ipv4Schema.safeParse(unbracketed).success ||
    Ipv6Schema.safeParse(unbracketed.replace(IPV6_ZONE, '')).success;
  return isIp ? unbracketed : undefined;
}

export const AGENT_GROUP_PLATFORMS = ['cross-platform', 'legacy'] as const;
export type AgentGroupPlatform = (typeof AGENT_GROUP_PLATFORMS)[number];

const PlatformSchema = z.enum(AGENT_GROUP_PLATFORMS).meta({
  description:
    'Cross-platform groups run a gateway listener here; legacy groups run nothing and support no passthrough.',
});

const HostSchema = z
  .string()
  .max(100)
  .transform((host, ctx) => {
    const normalized = normalizeListenerHost(host);
    if (normalized === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `Use 'localhost' or an IP address such as 127.0.0.1 or ::1; '${host.slice(0, 60)}' is neither.`,
      });
      return z.NEVER;
    }
    return normalized;
  })
  .meta({ description: 'Listener address: localhost or an IP address (127.0.0.1 by default).' });

const PortSchema = z
  .int()
  .min(0)
  .max(65535)
  .meta({ description: 'Listener port; 0 picks a free port at start.' });

export const AgentGroupSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    environmentId: z.string(),
    platform: PlatformSchema,
    host: z.string(),
    port: z.int(),
    listenerUrl: z.string().nullable().meta({
      description:
        "Where callers reach the group's gateway listener while it runs (`http://127.0.0.1:8080`: the running port, also when the configured one is 0); null for legacy groups and listeners that are not running.",
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    id: 'AgentGroup',
    description: 'An agent group; each cross-platform group is one gateway listener.',
  });
export type AgentGroup = z.output<typeof AgentGroupSchema>;

export const CreateAgentGroupSchema = z
  .object({
    name: NameSchema,
    environmentId: z.string().min(1).max(100),
    platform: PlatformSchema.default('cross-platform'),
    host: HostSchema.default('127.0.0.1'),
    port: PortSchema.default(0),
  })
  .strict()
  .meta({ id: 'CreateAgentGroup' });
export type CreateAgentGroupInput = z.infer<typeof CreateAgentGroupSchema>;
export type CreateAgentGroup = z.input<typeof CreateAgentGroupSchema>;

export const ModifyAgentGroupSchema = z
  .object({
    name: NameSchema.optional(),
    environmentId: z.string().min(1).max(100).optional(),
    platform: PlatformSchema.optional(),
    host: HostSchema.optional(),
    port: PortSchema.optional(),
  })
  .strict()
  .meta({ id: 'ModifyAgentGroup' });
export type ModifyAgentGroupInput = z.infer<typeof ModifyAgentGroupSchema>;
export type ModifyAgentGroup = z.input<typeof ModifyAgentGroupSchema>;
