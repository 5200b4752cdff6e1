import * as z from 'zod';

export const InstanceSchema = z
  .object({
    name: z.string().meta({ description: 'The instance (`Instance:Id`, or `<host name>-<process id>`).' }),
    startedAt: z.string().meta({ description: 'When it last started.', format: 'date-time' }),
    seenAt: z.string().meta({
      description: 'When it last said it was running (every minute while it runs).',
      format: 'date-time',
    }),
    current: z.boolean().meta({ description: 'The instance that answered this request.' }),
  })
  .meta({ id: 'Instance' });
export type Instance = z.output<typeof InstanceSchema>;

export const InstanceListSchema = z
  .object({ instances: z.array(InstanceSchema).meta({ description: 'By name.' }) })
  .meta({ id: 'InstanceList' });
export type InstanceList = z.output<typeof InstanceListSchema>;
